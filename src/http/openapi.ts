import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply } from 'fastify';
import packageJson from '../../package.json' with { type: 'json' };
import { limits } from '../limits.js';
import { COUNTRIES } from '../market/countries.js';

const seconds = (ms: number) => `${String(ms / 1000)} s`;

const DESCRIPTION = `Property market data for ${COUNTRIES.slice(0, -1).join(', ')} and ${COUNTRIES.at(-1) ?? ''}.

Authenticate with \`POST /auth/login/credentials\` and send the token as
\`Authorization: Bearer <token>\`. Errors are RFC 9457 problem details
(\`application/problem+json\`) with a stable \`code\`; every answer has an \`X-Request-Id\`, which
problem details repeat as \`requestId\` and the log keys its lines by. Unknown query
parameters and body members are refused (\`400 validation_failed\`), not ignored: a misspelt
\`?limt=5\` must not silently give another answer. A request value nested more than
${String(limits.jsonDepth)} levels deep, or with the character U+0000, is \`400 validation_failed\`.

A request must arrive within ${seconds(limits.timeouts.requestMs)}, its headers within
${seconds(limits.timeouts.headersMs)}; a slower one is answered \`408 request_timeout\`. A response not
taken by the client within ${seconds(limits.timeouts.sendMs)} of its start is cut and the connection closed; a request
not answered within ${seconds(limits.timeouts.answerMs)} of its arrival is answered \`503 overloaded\` and its connection closed. Its
request line and headers may have ${String(limits.requestHeaderBytes / 1024)} KiB, beyond which it is
answered \`431 headers_too_large\`; bytes that are not HTTP/1.1 and an HTTP/1.1 request without
\`Host\` get \`400 bad_request\`, an \`Expect\` other than \`100-continue\` gets
\`417 expectation_failed\` and \`CONNECT\` gets \`501 not_implemented\`. These come
from the HTTP server before any route, as problem details too, and the connection is closed after
them. Any operation may answer \`503 overloaded\` with \`Retry-After\` when the server sheds load
or its account database refuses connections: try again after the time it gives.`;

/** The OpenAPI document is generated from the same schemas that validate requests. */
/**
 * The documentation page's policy: its own scripts, styles (inline ones too: the UI sets them),
 * fonts and images (and data: URLs) only, framed by no one. The plugin's own allows styles and
 * fonts from any https host and images from validator.swagger.io, and upgrades to https, which
 * breaks the page on a plain-http loopback address.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join('; ');

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'propdata API', version: packageJson.version, description: DESCRIPTION },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Access or API token.' },
          accessTokenQuery: {
            type: 'apiKey',
            in: 'query',
            name: 'access_token',
            description: 'The token as a query parameter; only where a route lists it.',
          },
        },
      },
    },
  });
  // The document never changes once the app is ready, but Fastify would serialize its 600 kB
  // again for every request (about 7 ms of the thread, for anyone, without a token): once, then.
  let text: string | undefined;
  const documentText = () => (text ??= JSON.stringify(app.swagger()));
  const sendDocument = (reply: FastifyReply) =>
    reply.type('application/json; charset=utf-8').send(documentText());

  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The page's copy of the document, sent as the one below is.
    uiHooks: {
      onRequest: (request, reply, done) => {
        if (request.routeOptions.url === '/docs/json') void sendDocument(reply);
        else done();
      },
    },
    // No validator badge: it would load an image from swagger.io.
    uiConfig: { docExpansion: 'list', validatorUrl: null },
    staticCSP: true,
    transformStaticCSP: () => DOCS_CSP,
  });

  app.get(
    '/api/v1/openapi.json',
    { config: { auth: 'none' }, schema: { hide: true } },
    (_request, reply) => sendDocument(reply),
  );
}
