/**
 * `Content-Disposition` for a download named `title` (RFC 6266): an ASCII fallback for old
 * clients, and the exact name in UTF-8 for the others.
 */
export function contentDisposition(title: string): string {
  const fallback = title.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const exact = encodeURIComponent(title).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}
