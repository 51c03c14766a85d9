/**
 * The path of the public page of a link; the secret is its last segment. In a module of its own
 * because the request log reads it too (src/http/redact-url.ts): a secret opens its page.
 */
export const PAGE_PATH = '/shared/dossier';
