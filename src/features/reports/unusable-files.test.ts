import { randomUUID } from 'node:crypto';
import { PDFName, PDFNumber } from 'pdf-lib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackends } from '../../../test/helpers/backends.js';
import { createDossier } from '../../../test/helpers/fixtures.js';
import { makeJpeg } from '../../../test/helpers/images.js';
import {
  bigArrayPdf,
  editedPagePdf,
  makePdf,
  manyObjectsPdf,
  parentLoopPdf,
} from '../../../test/helpers/pdf.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { call, createWorld, type World } from '../../../test/helpers/world.js';
import { insertAttachment } from '../attachments/store.js';
import { defaultSections } from '../templates/provider-templates.js';

// Files stored before the upload checks that refuse them (a PDF whose page's parents loop, one of
// too many objects, one whose page's /Contents is a number, a JPEG with fill bytes pdfkit
// refuses) make their dossier's reports a 409 that names the file, not a 500 nor a PDF readers
// refuse; the other dossiers' reports are untouched.
describeBackends('a report with a stored file it cannot put in', (backend) => {
  let world: World;
  let template: string;
  beforeAll(async () => {
    world = await createWorld(backend);
    const res = await call(world.app, {
      method: 'POST',
      url: '/api/v1/user-settings/templates/',
      token: world.memberA.token,
      payload: {
        title: 'Plans',
        level: 'user',
        countryCode: 'AT',
        frontCover: false,
        backCover: false,
        sections: defaultSections('AT', 'appraisal').map((s) => ({
          ...s,
          enabled: s.type === 'attachments.floorplan',
        })),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    template = res.json<{ id: string }>().id;
  });
  afterAll(() => world.close());

  /** A dossier holding `bytes` as a floor plan, stored as an old upload was: unchecked. */
  async function dossierWith(
    title: string,
    contentType: 'application/pdf' | 'image/jpeg',
    bytes: Buffer,
  ) {
    const dossier = await createDossier(world);
    await insertAttachment(
      world.stores.accounts.db,
      {
        id: randomUUID(),
        dossier_id: dossier,
        organization_id: world.memberA.organizationId,
        type: 'floorplan',
        title,
        content_type: contentType,
        size: bytes.length,
        print_size: 0,
        width: contentType === 'application/pdf' ? null : 64,
        height: contentType === 'application/pdf' ? null : 48,
        pages: contentType === 'application/pdf' ? 1 : null,
        copy_weight: null,
        created_at: new Date().toISOString(),
      },
      bytes,
      null,
    );
    return dossier;
  }

  const report = (dossier: string) =>
    call(world.app, {
      method: 'POST',
      url: `/api/v1/dossiers/${dossier}/report`,
      token: world.memberA.token,
      payload: { templateId: template, date: '2026-01-15' },
    });

  it('is a 409 naming the file, and the next report works', async () => {
    const jpeg = makeJpeg(64, 48);
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    const filled = Buffer.concat([jpeg.subarray(0, sof), Buffer.from([0xff]), jpeg.subarray(sof)]);
    for (const [title, type, bytes] of [
      ['Loop.pdf', 'application/pdf', parentLoopPdf()],
      ['Filled.jpg', 'image/jpeg', filled],
    ] as const) {
      const problem = expectProblem(
        await report(await dossierWith(title, type, bytes)),
        409,
        'conflict',
      );
      expect(problem.detail).toMatch(
        new RegExp(
          `^The attachment “${title.replace('.', '\\.')}” cannot be put into a report \\(.+\\): delete it and upload it again$`,
        ),
      );
    }
    // Beyond what a file may hold: the upload checks' limits hold in the report too.
    const crowded = expectProblem(
      await report(
        await dossierWith('Crowded.pdf', 'application/pdf', await manyObjectsPdf(12_000)),
      ),
      409,
      'conflict',
    );
    expect(crowded.detail).toMatch(
      /^The attachment “Crowded\.pdf” cannot be put into a report \(has 1200\d objects; at most 10000 are allowed\)/,
    );
    const valued = await report(
      await dossierWith('Numbers.pdf', 'application/pdf', await bigArrayPdf(300_000)),
    );
    expect(expectProblem(valued, 409, 'conflict').detail).toMatch(
      /^The attachment “Numbers\.pdf” cannot be put into a report \(has more than 100000 values/,
    );
    // A page the upload check refuses today: copied as it was, it made the report a PDF
    // readers refuse to draw.
    const numbered = await editedPagePdf((page) =>
      page.set(PDFName.of('Contents'), PDFNumber.of(5)),
    );
    const contents = await report(await dossierWith('Contents.pdf', 'application/pdf', numbered));
    expect(expectProblem(contents, 409, 'conflict').detail).toBe(
      'The attachment “Contents.pdf” cannot be put into a report (page 3 has a /Contents that is neither a stream nor an array of streams): delete it and upload it again',
    );
    const fine = await report(await dossierWith('Plan.pdf', 'application/pdf', await makePdf(1)));
    expect(fine.statusCode, fine.body).toBe(200);
  });
});
