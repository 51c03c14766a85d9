import { organizationTurnsFor } from './accounts/organization-turns.js';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppContext } from './app-context.js';
import type { Config } from './config.js';
import { attachmentRoutes } from './features/attachments/routes.js';
import { authRoutes } from './features/auth/routes.js';
import { coverRoutes } from './features/covers/routes.js';
import { dossierRoutes } from './features/dossiers/routes.js';
import { answerBrokenPageLink, dossierLinkRoutes } from './features/dossier-links/routes.js';
import { createLoginThrottle, type LoginThrottle } from './features/auth/login-throttle.js';
import { PasswordCheckSlots } from './features/auth/password-check-slots.js';
import { divisionRoutes } from './features/divisions/routes.js';
import { healthRoutes } from './features/health/routes.js';
import { poiRoutes } from './features/pois/routes.js';
import { placesRoutes } from './features/places/routes.js';
import { reportRoutes } from './features/reports/routes.js';
import { ReportRenderer } from './features/reports/render/renderer.js';
import { statisticsRoutes } from './features/statistics/routes.js';
import { templateRoutes } from './features/templates/routes.js';
import { trackerRoutes } from './features/tracker/routes.js';
import { valuationRoutes } from './features/valuation/routes.js';
import { registerAuth } from './http/auth.js';
import { clientErrorHandler } from './http/client-errors.js';
import { capConnections, defaultMaxConnections, openFilesLimit } from './http/connection-cap.js';
import { registerErrorHandling, sendProblem, toAppError } from './http/errors.js';
import { registerJsonGuards } from './http/json-guards.js';
import { registerMetrics } from './http/metrics.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { registerUuidParams } from './http/uuid-params.js';
import { registerOpenApi } from './http/openapi.js';
import { NODE_HTTP_OPTIONS, registerProtocolAnswers } from './http/protocol-answers.js';
import { registerOverloadProtection } from './http/overload.js';
import { registerRateLimit } from './http/rate-limit.js';
import { registerHeadAnswers } from './http/head-answers.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerSendDeadline } from './http/send-deadline.js';
import { redactUrl } from './http/redact-url.js';
import { routeWideErrorStatuses } from './http/route-errors.js';
import { timeoutOptions, type ClientTimeouts } from './http/timeouts.js';
import { registerAnswerDeadline } from './http/answer-deadline.js';
import { errorResponses, StrictObject } from './http/schemas.js';
import { validatorCompiler } from './http/validation.js';
import { limits } from './limits.js';
import { PdfInspector } from './pdf/pdf-inspector.js';
import type { Stores } from './stores.js';
import { warmAfterSwitch } from './valuation/warm-after-switch.js';
import { valueProperty } from './valuation/value-property.js';
import { CostlyWork } from './work/costly-work.js';
import type { ValueProperty } from './valuation/types.js';

export interface BuildAppOptions {
  config: Config;
  stores: Stores;
  /** Where log lines go (default stdout); tests capture them here. */
  logStream?: { write(line: string): void };
  /** The time now (default: the system clock). */
  now?: () => Date;
  /** The valuation model (default: the service's own, `src/valuation/`). */
  valueProperty?: ValueProperty;
  /** Header and request deadlines (default: `limits.timeouts`); tests pass shorter ones. The
   * keep-alive timeout comes from the configuration. */
  timeouts?: Partial<Omit<ClientTimeouts, 'keepAliveMs'>>;
  /** The failed-login counter (default: a new one with `limits.login`); tests pass one they can
   * fill without spending a password check per failure. */
  loginThrottle?: LoginThrottle;
  /** The budget for costly requests (default: `limits.work`); tests pass smaller bounds. */
  costlyWork?: CostlyWork;
  /** The upload checker (default: one with `limits.covers` and `limits.uploads`); tests pass
   * one they can watch. Closed with the app. */
  pdfInspector?: PdfInspector;
}

function loggerOptions(
  config: Config,
  stream: BuildAppOptions['logStream'],
): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    ...(stream ? { stream } : {}),
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, stores } = options;
  const timeouts: ClientTimeouts = {
    headersMs: options.timeouts?.headersMs ?? limits.timeouts.headersMs,
    requestMs: options.timeouts?.requestMs ?? limits.timeouts.requestMs,
    checkIntervalMs: options.timeouts?.checkIntervalMs ?? limits.timeouts.checkIntervalMs,
    sendMs: options.timeouts?.sendMs ?? limits.timeouts.sendMs,
    answerMs: options.timeouts?.answerMs ?? limits.timeouts.answerMs,
    keepAliveMs: config.keepAliveTimeoutMs,
  };
  const serverOptions = timeoutOptions(timeouts);
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    bodyLimit: limits.jsonBodyBytes,
    ...serverOptions,
    http: { ...serverOptions.http, ...NODE_HTTP_OPTIONS, maxHeaderSize: limits.requestHeaderBytes },
    genReqId: () => randomUUID(),
    // Client-supplied request ids are not trusted: they would let a caller forge log lines.
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: limits.pathParamChars },
    // Errors Fastify raises before routing (bad URL encoding, over-long path parameters) are
    // problem+json like every other refusal, but on a shared page's path, its HTML 404 page.
    frameworkErrors: (error, request, reply) => {
      if (!answerBrokenPageLink(request.url, reply))
        void sendProblem(reply, toAppError(error, request.method));
    },
    // And so are those of the HTTP server itself, before there is a request: deadlines, headers
    // over the limit, bytes that are not HTTP.
    clientErrorHandler: clientErrorHandler(timeouts),
  });
  capConnections(
    app.server,
    config.maxConnections ?? defaultMaxConnections(openFilesLimit()),
    app.log,
  );
  app.setValidatorCompiler(validatorCompiler);
  // JSON only: a text/plain body is refused with 415 instead of failing validation as a string.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);

  app.addHook('onRoute', (route) => {
    if (!route.schema) return;
    route.schema.response = {
      ...errorResponses(
        ...routeWideErrorStatuses(
          route.url,
          Array.isArray(route.method) ? route.method : [route.method],
        ),
      ),
      ...(route.schema.response as object),
    };
    // Like unknown body properties, unknown query parameters are refused, not ignored: a typo
    // (`?limt=5`) must not silently give a different answer.
    route.schema.querystring ??= StrictObject({});
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  registerHeadAnswers(app);
  registerErrorHandling(app, answerBrokenPageLink);
  registerProtocolAnswers(app);
  registerSendDeadline(app, timeouts.sendMs);
  registerAnswerDeadline(app, timeouts.answerMs);
  registerSecurityHeaders(app);
  await registerOverloadProtection(app, config.maxEventLoopDelayMs);
  const now = options.now ?? (() => new Date());
  registerAuth(app, stores.accounts.db, now, config.tokenCacheMs);
  registerJsonGuards(app);
  registerUuidParams(app);
  await registerRateLimit(app, config.rateLimitPerMinute);
  await registerOpenApi(app);

  // The one place the valuation model is chosen; after a new snapshot it fills its caches with
  // the places valued recently.
  const model = warmAfterSwitch(options.valueProperty ?? valueProperty, stores.market);
  app.addHook('onClose', (_app, done) => {
    model.stop();
    done();
  });
  const renderer = new ReportRenderer();
  const ctx: AppContext = {
    config,
    stores,
    loginThrottle: options.loginThrottle ?? createLoginThrottle(),
    passwordCheckSlots: new PasswordCheckSlots({
      perAddress: limits.login.concurrentChecksPerAddress,
      total: limits.login.concurrentChecks,
    }),
    now,
    valueProperty: model.valueProperty,
    pdfInspector: options.pdfInspector ?? new PdfInspector(),
    costlyWork: options.costlyWork ?? new CostlyWork(),
    renderReport: (model) => renderer.render(model),
    organizationTurns: organizationTurnsFor(stores.accounts.backend, config.dbPoolSize),
  };
  app.addHook('onClose', () => ctx.pdfInspector.close());
  app.addHook('onClose', () => renderer.close());
  if (config.metricsToken) registerMetrics(app, ctx, config.metricsToken);
  healthRoutes(app, ctx);
  authRoutes(app, ctx);
  divisionRoutes(app, ctx);
  statisticsRoutes(app, ctx);
  templateRoutes(app, ctx);
  coverRoutes(app, ctx);
  dossierLinkRoutes(app, ctx);
  attachmentRoutes(app, ctx);
  reportRoutes(app, ctx);
  dossierRoutes(app, ctx);
  trackerRoutes(app, ctx);
  valuationRoutes(app, ctx);
  poiRoutes(app, ctx);
  placesRoutes(app, ctx);
  return app;
}
