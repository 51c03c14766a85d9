// `npx tsx scripts/report-sample.ts`: writes examples/report-appraisal-en.pdf from demo data,
// through the same code as a client's `POST /api/v1/dossiers/{id}/report`. A small demo market
// (fixed seed and day, so the file is the same each run) and an SQLite account database are
// made in a temporary directory, removed at the end; the dossier, template, covers and
// attachments are created through the API (scripts/report-dossier.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createOrganization } from '../src/accounts/organizations.js';
import { issueToken } from '../src/accounts/tokens.js';
import { createUser } from '../src/accounts/users.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { generateDemoData } from '../src/market/generate/generate.js';
import { terminalProgress } from '../src/market/progress.js';
import { openStores } from '../src/stores.js';
import { prepareReportDossier, type SendRequest } from './report-dossier.js';

/** The demo market of `propdata serve --demo` (size and seed), on a fixed day. */
const DEMO = { offers: 300_000, projects: 3000, seed: 1, today: '2026-06-15' };
/** The valuation date: a year back, so the report shows the offers and change since then. */
const DATE = '2025-06-15';
const ORGANIZATION = 'Demo Realty';

/** The PDF of the sample report, rendered in a temporary directory that is then removed. */
export async function renderSampleReport(): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'propdata-report-sample-'));
  try {
    const dataDir = path.join(dir, 'data');
    await generateDemoData(dataDir, { ...DEMO, progress: terminalProgress() });
    const config = loadConfig({
      PROPDATA_DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${path.join(dir, 'accounts.sqlite')}`,
      LOG_LEVEL: 'silent',
      // The file must not depend on how busy the machine is: no shedding of load.
      PROPDATA_MAX_EVENT_LOOP_DELAY_MS: '600000',
    });
    const stores = await openStores(config);
    try {
      const organization = await createOrganization(stores.accounts.db, ORGANIZATION);
      const user = await createUser(stores.accounts.db, {
        organizationId: organization.id,
        username: 'sample',
        password: 'sample password, not secret',
        isAdmin: true,
      });
      const { secret } = await issueToken(stores.accounts.db, {
        userId: user.id,
        kind: 'api',
        ttlSeconds: 3600,
      });
      const app = await buildApp({
        config,
        stores,
        now: () => new Date(`${DEMO.today}T12:00:00Z`),
      });
      try {
        const send: SendRequest = async (method, url, body) => {
          const res = await app.inject({
            method,
            url,
            payload: body.payload,
            headers: { authorization: `Bearer ${secret}`, 'content-type': body.contentType },
          });
          return { status: res.statusCode, body: res.rawPayload };
        };
        const { dossierId, templateId } = await prepareReportDossier(send, ORGANIZATION);
        const res = await send('POST', `/api/v1/dossiers/${dossierId}/report`, {
          payload: Buffer.from(JSON.stringify({ templateId, locale: 'en', date: DATE })),
          contentType: 'application/json',
        });
        if (res.status !== 200) {
          throw new Error(`report: HTTP ${String(res.status)} ${res.body.toString()}`);
        }
        return res.body;
      } finally {
        await app.close();
      }
    } finally {
      await stores.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = fileURLToPath(new URL('../examples/report-appraisal-en.pdf', import.meta.url));
  const bytes = await renderSampleReport();
  fs.writeFileSync(target, bytes);
  process.stdout.write(`${target}: ${String(bytes.length)} bytes\n`);
}
