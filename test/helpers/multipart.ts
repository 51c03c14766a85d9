export interface Part {
  name: string;
  /** Present: a file part. */
  filename?: string;
  contentType?: string;
  /** Replaces the `Content-Disposition` value built from `name` and `filename`; `null` leaves
   * the header out. */
  disposition?: string | null;
  /** More header lines, as sent (`Name: value`). */
  headers?: string[];
  data: Buffer | string;
}

export interface MultipartBody {
  payload: Buffer;
  headers: Record<string, string>;
}

export interface MultipartOptions {
  /** Between header lines and around the data (default CRLF, as the format requires). */
  lineBreak?: string;
  /** Put before the boundary in each delimiter (default `--`). */
  dashes?: string;
  /** End with the closing delimiter (default true). */
  close?: boolean;
}

/** A `multipart/form-data` body, built by hand so tests control every byte. */
export function multipart(
  parts: Part[],
  boundary = 'propdata-test-boundary-7f3a',
  options: MultipartOptions = {},
): MultipartBody {
  const { lineBreak = '\r\n', dashes = '--', close = true } = options;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.disposition !== undefined
        ? part.disposition
        : `form-data; name="${part.name}"` +
          (part.filename === undefined ? '' : `; filename="${part.filename}"`);
    const lines = [
      ...(disposition === null ? [] : [`Content-Disposition: ${disposition}`]),
      ...(part.contentType ? [`Content-Type: ${part.contentType}`] : []),
      ...(part.headers ?? []),
    ];
    const head = `${dashes}${boundary}${lineBreak}${lines.map((l) => l + lineBreak).join('')}${lineBreak}`;
    chunks.push(Buffer.from(head, 'utf8'), Buffer.from(part.data), Buffer.from(lineBreak));
  }
  if (close) chunks.push(Buffer.from(`${dashes}${boundary}--${lineBreak}`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The usual upload: one PDF in the `cover` field. */
export function coverForm(pdf: Buffer, filename = 'cover.pdf'): MultipartBody {
  return multipart([{ name: 'cover', filename, contentType: 'application/pdf', data: pdf }]);
}
