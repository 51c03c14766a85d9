import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ServiceDeps } from '../../app-context.js';
import { base64urlOf, hashToken } from '../../accounts/secrets.js';
import { accountStoreUnavailable } from '../../accounts/store-unavailable.js';
import { isoDay } from '../../dates.js';
import { limits } from '../../limits.js';
import { MAIN_CURRENCY } from '../../market/countries.js';
import { QueueRefusal } from '../../work/fair-queue.js';
import { QueryDeadlineExceeded } from '../../work/query-deadline.js';
import { toDossier } from '../dossiers/store.js';
import { PageCache } from './page-cache.js';
import { PAGE_VALUATIONS, pageData, type PageData } from './page-data.js';
import { busyPage, notFoundPage, sharedPage } from './page-html.js';
import { languageOf } from './page-text.js';
import { findOpenLink } from './store.js';
import { ViewCounter } from './view-counter.js';

/** The page's counters and cache: one set per app, kept in memory. */
export interface PageState {
  byLink: ViewCounter;
  byAddress: ViewCounter;
  cache: PageCache<PageData>;
}

export function pageState(): PageState {
  const { page } = limits.dossierLinks;
  return {
    byLink: new ViewCounter(page.viewsPerLink, page.windowMs, page.trackedKeys),
    byAddress: new ViewCounter(page.viewsPerAddress, page.windowMs, page.trackedKeys),
    cache: new PageCache(page.cacheMs, page.cachedPages),
  };
}

export type PageDeps = Pick<
  ServiceDeps,
  'db' | 'market' | 'valueProperty' | 'now' | 'costlyWork'
> & {
  page: PageState;
};

export interface SharedPage {
  status: 200 | 404 | 429 | 503;
  html: string;
  /** Seconds, with a 429 or 503. */
  retryAfter?: number;
}

/** The secrets createLink makes: `limits.dossierLinks.tokenBytes` random bytes in base64url. */
const SECRET_PATTERN = new RegExp(`^${base64urlOf(limits.dossierLinks.tokenBytes)}$`);

/** The language a page view asks for: the first `lang` given, if it is two letters. */
export function askedLanguage(lang: string | string[] | undefined): string | undefined {
  const first = Array.isArray(lang) ? lang[0] : lang;
  return first !== undefined && /^[A-Za-z]{2}$/.test(first) ? first : undefined;
}

/**
 * The public page of a sharing link, without login: the dossier's facts, its valuation today,
 * offers around it and the trend, in the link's language (or `lang`'s). A secret that is
 * malformed, unknown, expired, revoked, or whose dossier is gone gets the same plain 404 page.
 * Views are counted per client address (before anything is looked up) and per link; what the
 * page shows is computed in the organization's turn for costly work and then kept
 * (`limits.dossierLinks.page`). A view refused by either, or while the account database cannot
 * serve, gets a plain 429 or 503 page.
 */
export async function openSharedPage(
  deps: PageDeps,
  view: { secret: string; lang?: string | undefined; address: string },
): Promise<SharedPage> {
  const now = deps.now();
  const asked = languageOf(view.lang ?? 'en');
  const busy = (status: 429 | 503, retryAfter: number, lang = asked): SharedPage => ({
    status,
    html: busyPage(lang),
    retryAfter,
  });
  const addressWait = deps.page.byAddress.hit(view.address, now.getTime());
  if (addressWait > 0) return busy(429, addressWait);
  let found: Awaited<ReturnType<typeof findOpenLink>>;
  try {
    found = SECRET_PATTERN.test(view.secret)
      ? await findOpenLink(deps.db, hashToken(view.secret), now.toISOString())
      : undefined;
  } catch (error) {
    // The account database busy or unreachable: a person gets the plain busy page, as for
    // any other overload, not an API's problem details.
    if (accountStoreUnavailable(error)) {
      return busy(503, limits.accountStore.retryAfterSeconds);
    }
    throw error;
  }
  if (!found) return { status: 404, html: notFoundPage(asked) };
  // `?lang=` picks the words; the link's locale still formats numbers and dates when it is of
  // the same language, else the language's own formats are used. A locale of a language the
  // page is not written in (`ar-EG`, `fa-IR`) is not of English: its digits and calendar
  // (Eastern Arabic, Solar Hijri) had been mixed into an English page.
  const ownLanguage = found.link.locale.slice(0, 2).toLowerCase();
  const language = languageOf(view.lang ?? found.link.locale);
  const linkWait = deps.page.byLink.hit(found.link.id, now.getTime());
  if (linkWait > 0) return busy(429, linkWait, language);
  const dossier = toDossier(found.dossier);
  const locale = ownLanguage === language ? found.link.locale : language;
  const today = isoDay(now);
  // Everything the page is computed from: a new snapshot, a change of the dossier (its stored
  // body) or a new day make another page.
  const key = [
    found.link.id,
    path.basename(deps.market.snapshotFile),
    createHash('sha256').update(found.dossier.body).digest('base64url'),
    today,
  ].join('|');
  const costly = PAGE_VALUATIONS >= deps.costlyWork.options.valuationPairsCostly;
  let data: PageData;
  try {
    data = await deps.page.cache.get(key, now.getTime(), () =>
      deps.costlyWork.run(found.link.organization_id, costly, () =>
        deps.market.read((db, snapshot) =>
          deps.costlyWork.queries('shared_page', db, snapshot, (db) =>
            pageData(db, deps.valueProperty, dossier, today, MAIN_CURRENCY[dossier.countryCode]),
          ),
        ),
      ),
    );
  } catch (error) {
    // A person reads this page: the budget's refusals are a page too, not problem+json.
    if (error instanceof QueueRefusal) {
      const status = error.reason === 'organization_busy' ? 429 : 503;
      return busy(status, limits.work.retryAfterSeconds, language);
    }
    if (error instanceof QueryDeadlineExceeded) {
      return busy(503, limits.work.retryAfterSeconds, language);
    }
    throw error;
  }
  return { status: 200, html: sharedPage(data, locale, language, found.link.expires_at) };
}
