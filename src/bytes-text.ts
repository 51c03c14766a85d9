/** Bytes as MiB for messages: one decimal, none when it is whole (`25`, `1.5`). */
export const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '');
