// A dossier ready for an appraisal report, made through the HTTP API as a client would: the
// dossier (a flat in Vienna), a user template with every AT appraisal section, front and back
// covers, a floor plan and a two-page permit. Used by scripts/report-sample.ts (through
// `inject`) and the report benchmark (over HTTP to a server process).
import { EXAMPLE_DOSSIER } from '../src/features/dossiers/schemas.js';
import { defaultSections } from '../src/features/templates/provider-templates.js';
import { TEMPLATE_DEFAULTS } from '../src/features/templates/template.js';
import { floorPlan, samplePdf } from './sample-files.js';

export interface ApiAnswer {
  status: number;
  body: Buffer;
}

/** One authenticated request; `body` is sent with its content type. */
export type SendRequest = (
  method: 'POST',
  url: string,
  body: { payload: Buffer; contentType: string },
) => Promise<ApiAnswer>;

export interface ReportDossier {
  dossierId: string;
  templateId: string;
}

const json = (value: unknown) => ({
  payload: Buffer.from(JSON.stringify(value)),
  contentType: 'application/json',
});

/** A `multipart/form-data` body as fetch would send it. */
async function form(fields: Record<string, string | Blob>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') data.append(name, value);
    else data.append(name, value, name === 'file' ? 'upload' : `${name}.pdf`);
  }
  const encoded = new Response(data);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? '',
  };
}

async function created(send: SendRequest, url: string, body: Parameters<SendRequest>[2]) {
  const answer = await send('POST', url, body);
  if (answer.status !== 201) {
    throw new Error(`POST ${url}: HTTP ${String(answer.status)} ${answer.body.toString()}`);
  }
  return JSON.parse(answer.body.toString()) as { id: string };
}

/** Makes the dossier, template, covers and attachments as one admin user of an organization. */
export async function prepareReportDossier(
  send: SendRequest,
  organization: string,
): Promise<ReportDossier> {
  const dossier = await created(send, '/api/v1/dossiers', json(EXAMPLE_DOSSIER));
  const template = await created(
    send,
    '/api/v1/user-settings/templates',
    json({
      title: 'Appraisal report',
      level: 'user',
      countryCode: 'AT',
      // Gross rents, both covers.
      ...TEMPLATE_DEFAULTS,
      sections: defaultSections('AT', 'appraisal'),
    }),
  );
  const pdf = (bytes: Uint8Array) => new Blob([bytes], { type: 'application/pdf' });
  await created(
    send,
    '/api/v1/user-settings/covers/user/front',
    await form({ cover: pdf(await samplePdf([organization], true)) }),
  );
  await created(
    send,
    '/api/v1/user-settings/covers/organization/back',
    await form({ cover: pdf(await samplePdf([`${organization} · Graben 1 · 1010 Wien`], true)) }),
  );
  const attachments = `/api/v1/dossiers/${dossier.id}/attachments`;
  await created(
    send,
    attachments,
    await form({
      file: new Blob([floorPlan()], { type: 'image/png' }),
      type: 'floorplan',
      title: 'Floor plan, 2nd floor',
    }),
  );
  await created(
    send,
    attachments,
    await form({
      file: pdf(await samplePdf(['Building permit, page 1', 'Building permit, page 2'], false)),
      type: 'permit',
      title: 'Building permit 1910',
    }),
  );
  return { dossierId: dossier.id, templateId: template.id };
}
