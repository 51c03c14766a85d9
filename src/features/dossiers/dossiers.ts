import { turnsApart } from '../../work/turns-apart.js';
import { Readable } from 'node:stream';
import type { ServiceDeps } from '../../app-context.js';
import type { AccountDb } from '../../accounts/database.js';
import type { Caller } from '../../http/caller.js';
import type { Dossier, DossierContent } from './dossier.js';
import { mergePatch } from './merge-patch.js';
import type { DossierRead, DossierReplace } from './schemas.js';
import { invalidField } from '../../http/field-errors.js';
import type { FieldError } from '../../http/problem.js';
import { AppError, notFound } from '../../http/problem.js';
import { limits } from '../../limits.js';
import { KeyedTurns } from '../../work/keyed-turns.js';
import {
  deleteDossier,
  findDossier,
  findStoredDossier,
  dossiersById,
  insertDossier,
  pageBatches,
  replaceDossier,
} from './store.js';
import { checkMergedBody, resolveContent } from './validate.js';

/** What the dossier operations need: the account store, the market data, and the time. */
export type DossierDeps = Pick<ServiceDeps, 'db' | 'market' | 'now' | 'organizationTurns'>;

const missing = () => notFound('Dossier');

export function toRead(dossier: Dossier): DossierRead {
  return {
    id: dossier.id,
    createdAt: dossier.createdAt,
    updatedAt: dossier.updatedAt,
    ...dossier.content,
  };
}

const resolve = (deps: DossierDeps, content: DossierContent) =>
  deps.market.read((db) => resolveContent(db, content));

/** A dossier of the caller's organization, or the same 404 as for a missing id. */
export async function visibleDossier(db: AccountDb, caller: Caller, id: string): Promise<Dossier> {
  const dossier = await findDossier(db, caller, id);
  if (!dossier) throw missing();
  return dossier;
}

export async function createDossier(
  deps: DossierDeps,
  caller: Caller,
  body: DossierContent,
): Promise<string> {
  const { countryCode, content } = await resolve(deps, body);
  return deps.organizationTurns.run(caller.organizationId, () =>
    insertDossier(deps.db, caller, content, countryCode, deps.now()),
  );
}

export async function readDossier(deps: DossierDeps, caller: Caller, id: string) {
  return toRead(await visibleDossier(deps.db, caller, id));
}

/** Batches of all pages being sent go one at a time, a turn of the event loop apart. */
const batchTurn = turnsApart();

/**
 * A page of the organization's dossiers as the JSON text of `DossierList`, made as the client
 * takes it: the page's ids first, then its dossiers a batch at a time (`pageBatches`), each
 * written by `serialize` (the response schema's serializer). A page of a hundred dossiers of
 * 1 MiB each was 90 MiB built at once, two seconds of the server's one thread and gigabytes for
 * a few such requests; now the process holds about one batch per page being sent, and other
 * requests are answered between batches. A dossier deleted while its page is sent is left out.
 */
export async function pageOfDossiers(
  deps: DossierDeps,
  caller: Caller,
  page: { limit: number; offset: number },
  serialize: (item: DossierRead) => string,
): Promise<Readable> {
  const { batches, total } = await pageBatches(
    deps.db,
    caller,
    page,
    limits.dossiers.listBatchBytes,
  );
  async function* text(): AsyncGenerator<string> {
    yield '{"items":[';
    let first = true;
    for (const ids of batches) {
      // Without a turn of the event loop between batches, a client reading fast would have the
      // whole page made in one go while other requests wait (SQLite answers synchronously);
      // with a turn per page, every page in flight would make a batch in the same turn. The
      // turn is taken for the parsing and writing only: pages waiting on each other's database
      // round trips (PostgreSQL) had taken several times as long.
      const dossiers = await dossiersById(deps.db, caller, ids);
      const done = await batchTurn();
      try {
        const texts = dossiers.map((dossier) => serialize(toRead(dossier)));
        done();
        for (const text of texts) {
          yield (first ? '' : ',') + text;
          first = false;
        }
      } finally {
        done();
      }
    }
    // The members after `items`, in the order of the schema's serializer.
    yield `],"totalItems":${String(total)},"limit":${String(page.limit)},"offset":${String(page.offset)}}`;
  }
  return Readable.from(text(), { objectMode: false });
}

export async function replaceDossierContent(
  deps: DossierDeps,
  caller: Caller,
  id: string,
  body: DossierReplace,
): Promise<void> {
  // Visibility first: a foreign id is a 404 even when the body is wrong too.
  await visibleDossier(deps.db, caller, id);
  const written = withoutReadOnly(body, id).written as DossierContent;
  const { countryCode, content } = await resolve(deps, written);
  if (!(await replaceDossier(deps.db, caller, id, content, countryCode, deps.now()))) {
    throw missing();
  }
}

/**
 * A body or patch without the read-only members a dossier reads with (schemas.ts
 * `DossierReplace`), so that what a client read can go back by PUT or PATCH alike: `id`, if
 * given (and not null, which a patch may send), must be this dossier's; `createdAt` and
 * `updatedAt` are ignored (the service keeps the times), but must be of the type a read gives
 * (a string, or null in a patch), as a PUT's schema has them: the errors of those that are not,
 * for a patch to refuse together with the merged body's own (a PUT's schema has refused them).
 */
function withoutReadOnly<T extends object>(
  body: T,
  id: string,
): { written: T; readOnlyErrors: FieldError[] } {
  const sentId = (body as { id?: unknown }).id;
  if (
    sentId !== undefined &&
    sentId !== null &&
    (typeof sentId !== 'string' || sentId.toLowerCase() !== id.toLowerCase())
  ) {
    throw invalidField('/id', `must be this dossier's id (${id}), or be left out`);
  }
  const readOnlyErrors = ['createdAt', 'updatedAt'].flatMap((key) => {
    const sent: unknown = Reflect.get(body, key);
    return sent !== undefined && sent !== null && typeof sent !== 'string'
      ? [{ path: `/${key}`, message: 'must be string' }]
      : [];
  });
  const written = { ...body };
  for (const key of ['id', 'createdAt', 'updatedAt']) Reflect.deleteProperty(written, key);
  return { written, readOnlyErrors };
}

/** Whether a patch sets or removes `property.location.coordinates` without saying `precision`. */
function movesPoint(patch: Record<string, unknown>): boolean {
  const property = patch.property;
  if (typeof property !== 'object' || property === null) return false;
  const location = (property as Record<string, unknown>).location;
  if (typeof location !== 'object' || location === null) return false;
  return 'coordinates' in location && !('precision' in location);
}

/**
 * Applies a JSON merge patch to the dossier as it reads (RFC 7396) and validates the result as
 * a whole body. A patch that sets or removes the coordinates without naming `precision` drops
 * the old precision: new coordinates are exact, removed ones fall back to the postcode.
 *
 * The result is written only onto the body it was merged onto: two patches of one dossier at
 * once (one changing the title, the other the price) would otherwise each write back the other's
 * old values, and one change would be lost. A patch that finds the body changed meanwhile is
 * merged again onto the new one, up to `limits.dossiers.patchAttempts` times, then refused as a
 * conflict. Patches of one dossier in this process take turns, so that only writes from
 * elsewhere (other processes on the same store, PUTs) make one merge again: without turns, six
 * patches at once left each round one winner and the sixth a `409`.
 */
export function patchDossier(
  deps: DossierDeps,
  caller: Caller,
  id: string,
  sent: Record<string, unknown>,
): Promise<void> {
  return patchTurns.run(`${caller.organizationId}/${id}`, () => patchOnce(deps, caller, id, sent));
}

/** Patches of one dossier (by organization and id) in this process, one after another. */
const patchTurns = new KeyedTurns({
  maxPending: limits.dossiers.patchesPending,
  maxWaitMs: limits.dossiers.patchWaitMs,
  what: 'this dossier',
});

async function patchOnce(
  deps: DossierDeps,
  caller: Caller,
  id: string,
  sent: Record<string, unknown>,
): Promise<void> {
  for (let attempt = 0; attempt < limits.dossiers.patchAttempts; attempt++) {
    const stored = await findStoredDossier(deps.db, caller, id);
    if (!stored) throw missing();
    // Visibility first: a foreign id is a 404 even when the patch is wrong too.
    const { written: patch, readOnlyErrors } = withoutReadOnly(sent, id);
    const current: DossierContent = structuredClone(stored.dossier.content);
    if (movesPoint(patch)) Reflect.deleteProperty(current.property.location, 'precision');
    const merged = checkMergedBody(mergePatch(current, patch), readOnlyErrors);
    const { countryCode, content } = await resolve(deps, merged);
    const now = deps.now();
    if (await replaceDossier(deps.db, caller, id, content, countryCode, now, stored.body)) return;
  }
  throw new AppError(
    'conflict',
    'The dossier kept changing while this patch was applied; read it and try again',
  );
}

export async function removeDossier(deps: DossierDeps, caller: Caller, id: string): Promise<void> {
  if (!(await deleteDossier(deps.db, caller, id))) throw missing();
}
