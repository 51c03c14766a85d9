/**
 * What a library's failure on an uploaded file says to the client: the library's own message
 * (its first line, at most 160 characters), which names what it found wrong in the file; but a
 * JavaScript error raised inside the library (`x.traverse is not a function`, where the file's
 * structure is not what the library's code expects) says nothing about the file and shows the
 * library's internals, so it is told in general words.
 */
export function fileErrorReason(error: unknown): string {
  if (error instanceof TypeError || error instanceof ReferenceError) {
    return 'its structure is not what its format prescribes';
  }
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]?.slice(0, 160) ?? '';
}
