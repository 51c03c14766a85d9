import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackends } from '../../../test/helpers/backends.js';
import { createDossier, storePdfWithoutWeight } from '../../../test/helpers/fixtures.js';
import { coverForm, multipart } from '../../../test/helpers/multipart.js';
import { makePdf } from '../../../test/helpers/pdf.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { call, createWorld, type World } from '../../../test/helpers/world.js';
import { limits } from '../../limits.js';
import { PdfInspector } from '../../pdf/pdf-inspector.js';

/*
 * An upload still at work when the answer deadline has answered it `503` must store nothing:
 * the client was told it failed and may send it again. Here the file check's slots are held by
 * other organizations until the deadline has passed, so the upload's check, and what it would
 * store after it, come late.
 */
const ANSWER_MS = 1500;

describeBackends('an upload answered by its deadline', (backend) => {
  const inspector = new PdfInspector();
  let world: World;
  beforeAll(async () => {
    world = await createWorld(backend, {
      app: { timeouts: { answerMs: ANSWER_MS }, pdfInspector: inspector },
    });
  });
  afterAll(async () => {
    await world.close();
    await inspector.close();
  });

  /** Runs `upload` while the check's slots are held, lets them go once answered, awaits the rest. */
  async function whileCheckHeld(upload: () => ReturnType<typeof call>) {
    const releases: (() => void)[] = [];
    // Every worker's slot, each by another organization (one organization holds one at a time).
    const held = Array.from({ length: limits.covers.pdfCheckWorkers }, (_, i) =>
      inspector.queue.run(
        `another organization ${String(i)}`,
        () => new Promise<void>((resolve) => releases.push(resolve)),
      ),
    );
    const answer = await upload();
    for (const release of releases) release();
    await Promise.all(held);
    // The upload's own work (its check, then its store) ends after the answer.
    while (inspector.uploads.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    return answer;
  }

  it('stores no cover', async () => {
    const url = '/api/v1/user-settings/covers/user/front';
    const pdf = await makePdf(1, 'Late');
    const answer = await whileCheckHeld(() =>
      call(world.app, { method: 'POST', url, token: world.memberA.token, ...coverForm(pdf) }),
    );
    expectProblem(answer, 503, 'overloaded');
    const listed = await call(world.app, { method: 'GET', url, token: world.memberA.token });
    expect(listed.json<{ items: unknown[] }>().items).toEqual([]);
  });

  it('stores no attachment, and weighs no older PDF for it', async () => {
    const dossier = await createDossier(world, world.memberA);
    const url = `/api/v1/dossiers/${dossier}/attachments`;
    const pdf = await makePdf(1, 'Permit');
    // A PDF stored before copy weights were kept: the next PDF upload weighs it.
    const older = await storePdfWithoutWeight(world, dossier, pdf);
    const db = world.stores.accounts.db;
    const form = multipart([
      { name: 'file', filename: 'permit.pdf', contentType: 'application/pdf', data: pdf },
      { name: 'type', data: 'permit' },
    ]);
    const answer = await whileCheckHeld(() =>
      call(world.app, { method: 'POST', url, token: world.memberA.token, ...form }),
    );
    expectProblem(answer, 503, 'overloaded');
    const rows = () =>
      db
        .selectFrom('attachments')
        .select(['id', 'copy_weight'])
        .where('dossier_id', '=', dossier)
        .execute();
    expect(await rows()).toEqual([{ id: older, copy_weight: null }]);
  });
});
