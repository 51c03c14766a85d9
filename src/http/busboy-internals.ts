import { createRequire } from 'node:module';

const fromMultipart = createRequire(createRequire(import.meta.url).resolve('@fastify/multipart'));

/**
 * A module of the form parser `@fastify/multipart` uses (`@fastify/busboy`, one copy in the
 * lockfile), by its path in that package: the very module the parser loads, not a copy.
 */
export function busboyModule(path: string): unknown {
  return fromMultipart(`@fastify/busboy/${path}`);
}
