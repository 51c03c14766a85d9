/**
 * The path of the public page of a link; the secret is its last segment. In a module of its own
 * because the request log reads it too (src/http/redact-url.ts): a secret opens its page.
 */
export const PAGE_PATH = '/shared/dossier';

/** Percent-decoding that never throws: a malformed escape stays as it is. */
export function decodePercent(text: string): string {
  return text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
}

/**
 * Whether a request's URL is under the pages' path however it is spelled: the absolute form a
 * proxy sends (`http://host/shared/…`), percent-encoded letters (`/%73hared/…`, decoded until
 * nothing changes), repeated slashes, dot segments and letter case. Such a URL may hold a
 * secret: the log leaves its path out (src/http/redact-url.ts), and one no route answers gets
 * the page's 404, not an error document that repeats it.
 */
export function underPagePath(url: string): boolean {
  let path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split(/[?#]/)[0] ?? '';
  for (let round = 0; round < 5; round++) {
    const decoded = decodePercent(path);
    if (decoded === path) break;
    path = decoded;
  }
  path = path.replace(/[\\/]+/g, '/');
  try {
    path = new URL(path, 'http://page.invalid').pathname;
  } catch {
    // Kept as it is: the prefix test below still applies.
  }
  const base = PAGE_PATH.slice(0, PAGE_PATH.lastIndexOf('/') + 1).toLowerCase();
  return path.toLowerCase().startsWith(base);
}
