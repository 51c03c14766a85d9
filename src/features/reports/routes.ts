import type { FastifyInstance } from 'fastify';
import { serviceDeps, type AppContext } from '../../app-context.js';
import { callerOf } from '../../http/auth.js';
import { sendPdf } from '../../http/download.js';
import { featureRoutes } from '../../http/routes.js';
import { limits } from '../../limits.js';
import { createReport } from './reports.js';
import { UnsentReports } from './unsent-reports.js';
import { ReportParams, ReportPdf, ReportRequest } from './schemas.js';

export function reportRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps = serviceDeps(ctx);
  const unsent = new UnsentReports();
  featureRoutes(app, { auth: 'bearer-or-query', tags: ['reports'] }).post(
    '/api/v1/dossiers/:id/report',
    {
      operationId: 'createReport',
      summary: 'A PDF report on a dossier, laid out by a template',
      description:
        'A title page, then the template’s enabled sections in template order, each starting ' +
        'on its own page and listed in the PDF outline under its heading in `locale`; the ' +
        'caller’s (else the organization’s) first front and back cover when the template asks ' +
        'for them; PDF attachments’ pages in their `attachments.<type>` section. Data: the ' +
        `property tracker’s at \`date\` (valuations, offers and projects within ${String(limits.reports.radius)} m, trends). ` +
        'Sections whose data the service does not hold say so. A dossier or template the ' +
        'caller cannot see is a 404; a template of another country, an unknown locale or a ' +
        'date outside the market data is a 400. The token may be sent as `access_token`. A ' +
        'report is costly work: it is made in the organization’s turn (one at a time per ' +
        'organization; too many waiting → 429, no turn in time → 503, both with Retry-After). ' +
        'A stored cover or attachment the report cannot put in (one stored before the upload ' +
        'checks that now refuse such files) is a 409 that names it, to be deleted and uploaded ' +
        'again. A report sent is held until its client has taken it: while the organization’s ' +
        `clients have not taken ${String(limits.reports.unsentBytesPerOrganization / 1024 / 1024)} MiB of reports a new one is 429, ` +
        `while the process holds ${String(limits.reports.unsentBytes / 1024 / 1024)} MiB 503 (Retry-After).`,
      params: ReportParams,
      body: ReportRequest,
      response: { 200: ReportPdf },
      errors: [400, 404, 409, 413, 415, 429, 503],
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const report = await createReport(deps, caller, request.params.id, request.body, unsent);
      // Held until the client has taken it: the response's socket tells.
      unsent.hold(caller.organizationId, report.bytes.byteLength, reply.raw);
      return sendPdf(reply, report.fileName, report.bytes);
    },
  );
}
