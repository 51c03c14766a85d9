export interface Part {
  name: string;
  /** Present: a file part. */
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

export interface MultipartBody {
  payload: Buffer;
  headers: Record<string, string>;
}

/** A `multipart/form-data` body, built by hand so tests control every byte. */
export function multipart(parts: Part[], boundary = 'propdata-test-boundary-7f3a'): MultipartBody {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      `form-data; name="${part.name}"` +
      (part.filename === undefined ? '' : `; filename="${part.filename}"`);
    const head =
      `--${boundary}\r\nContent-Disposition: ${disposition}\r\n` +
      (part.contentType ? `Content-Type: ${part.contentType}\r\n` : '') +
      '\r\n';
    chunks.push(Buffer.from(head, 'utf8'), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The usual upload: one PDF in the `cover` field. */
export function coverForm(pdf: Buffer, filename = 'cover.pdf'): MultipartBody {
  return multipart([{ name: 'cover', filename, contentType: 'application/pdf', data: pdf }]);
}
