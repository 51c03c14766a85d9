import { decodePercent, PAGE_PATH, underPagePath } from '../features/dossier-links/page-path.js';

const TOKEN_SHAPE = /pd_[A-Za-z0-9_-]{43}/g;
const PAGE_SECRET = `${PAGE_PATH}/`;

/** A query's percent-decoding that never throws (`decodePercent`), where `+` is a space. */
function decodeLeniently(text: string): string {
  return decodePercent(text.replaceAll('+', ' '));
}

/** `raw` decoded until nothing changes (at most five rounds), so that neither `%61ccess_token`
 * nor `%2561ccess_token` hides what it says. */
function decodedFully(raw: string): string {
  let text = raw;
  for (let round = 0; round < 5; round++) {
    const decoded = decodeLeniently(text);
    if (decoded === text) break;
    text = decoded;
  }
  return text;
}

/** A query parameter name that may carry a credential, however it is spelled or encoded. */
function isCredentialName(raw: string): boolean {
  return decodedFully(raw).toLowerCase().includes('token');
}

/** A shared page's path ends in its link's secret, which opens the page: all of it goes, however
 * the path is spelled (`underPagePath`). */
function withoutPageSecret(url: string): string {
  if (!underPagePath(url)) return url;
  const pathEnd = url.search(/[?#]/);
  return `${PAGE_SECRET}[redacted]${pathEnd < 0 ? '' : url.slice(pathEnd)}`;
}

/**
 * The URL as it may be logged: the value of every query parameter whose decoded name mentions a
 * token (`access_token`, `access%5Ftoken`, `%61ccess_token`, `access_token[]`, …) is replaced,
 * whether parameters are separated by `&` or `;`, and so is a shared page's secret. Tokens and
 * secrets must never reach the log.
 */
export function redactUrl(asked: string): string {
  const url = withoutPageSecret(asked);
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return withoutTokens(url);
  const hashStart = url.indexOf('#', queryStart);
  const end = hashStart < 0 ? url.length : hashStart;
  const query = url
    .slice(queryStart + 1, end)
    .split(/([&;])/)
    .map((part) => {
      if (part === '&' || part === ';') return part;
      const equals = part.indexOf('=');
      const name = equals < 0 ? part : part.slice(0, equals);
      if (!isCredentialName(name)) return part;
      return equals < 0 ? part : `${name}=[redacted]`;
    })
    .join('');
  return withoutTokens(`${url.slice(0, queryStart + 1)}${query}${url.slice(end)}`);
}

/**
 * Anything shaped like one of the service's tokens, wherever it stands. One with a character
 * percent-encoded (`pd%5F…`, a client's mistake: no route takes a token there) is a token still:
 * such a URL is logged decoded.
 */
function withoutTokens(url: string): string {
  const decoded = decodedFully(url);
  return (decoded.replace(TOKEN_SHAPE, '') === decoded ? url : decoded).replace(
    TOKEN_SHAPE,
    '[redacted]',
  );
}
