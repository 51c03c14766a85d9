import type { ServiceDeps } from '../../app-context.js';
import { hashToken } from '../../accounts/secrets.js';
import { isoDay } from '../../dates.js';
import { MAIN_CURRENCY } from '../../market/countries.js';
import { toDossier } from '../dossiers/store.js';
import { pageData } from './page-data.js';
import { notFoundPage, sharedPage } from './page-html.js';
import { languageOf } from './page-text.js';
import { findOpenLink } from './store.js';

export type PageDeps = Pick<ServiceDeps, 'db' | 'market' | 'valueProperty' | 'now'>;

/** The secrets createLink makes: 32 random bytes in base64url. */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The public page of a sharing link, without login: the dossier's facts, its valuation today,
 * offers around it and the trend, in the link's language (or `lang`'s). A secret that is malformed, unknown,
 * expired, revoked, or whose dossier is gone gets the same plain 404 page.
 */
export async function openSharedPage(
  deps: PageDeps,
  secret: string,
  lang?: string,
): Promise<{ status: 200 | 404; html: string }> {
  const now = deps.now();
  const found = SECRET_PATTERN.test(secret)
    ? await findOpenLink(deps.db, hashToken(secret), now.toISOString())
    : undefined;
  if (!found) return { status: 404, html: notFoundPage(languageOf(lang ?? 'en')) };
  const dossier = toDossier(found.dossier);
  // `?lang=` picks the words; the link's locale still formats numbers and dates when it is of
  // the same language, else the language's own formats are used.
  const language = languageOf(lang ?? found.link.locale);
  const locale = languageOf(found.link.locale) === language ? found.link.locale : language;
  const data = await deps.market.read((db) =>
    pageData(db, deps.valueProperty, dossier, isoDay(now), MAIN_CURRENCY[dossier.countryCode]),
  );
  return { status: 200, html: sharedPage(data, locale, language, found.link.expires_at) };
}
