import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDossier, storePdfWithoutWeight } from '../../../test/helpers/fixtures.js';
import { multipart } from '../../../test/helpers/multipart.js';
import { copiedObjectsPdf, makePdf } from '../../../test/helpers/pdf.js';
import { call, createWorld, type World } from '../../../test/helpers/world.js';
import { limits } from '../../limits.js';
import { inspectPdf, PdfRefusal } from '../../pdf/pdf-inspection.js';
import { PdfInspector } from '../../pdf/pdf-inspector.js';

let world: World;
const inspector = new PdfInspector();
/** While set, checks of files of this length end as the worker's time limit ends them. */
let slowLength: number | undefined;
const slowInspector = new Proxy(inspector, {
  get(target, key, receiver) {
    if (key !== 'inspectAttachment') return Reflect.get(target, key, receiver) as unknown;
    return (bytes: Uint8Array, organizationId: string) =>
      bytes.length === slowLength
        ? Promise.reject(new PdfRefusal('is too complex to read (time limit reached)', true))
        : inspector.inspectAttachment(bytes, organizationId);
  },
});

beforeAll(async () => {
  world = await createWorld('sqlite', { app: { pdfInspector: slowInspector } });
});
afterAll(async () => {
  await world.close();
  await inspector.close();
});

it('leaves a PDF stored before weights unweighed where its check ran out of time, and weighs it later', async () => {
  const heavy = await copiedObjectsPdf(Math.floor(limits.attachments.copyWeightPerDossier / 3.5));
  const { copyWeight } = await inspectPdf(heavy);
  const light = await makePdf(2);
  const dossier = await createDossier(world, world.memberA);
  const olds: string[] = [];
  for (let i = 0; i < 3; i++) olds.push(await storePdfWithoutWeight(world, dossier, heavy));
  const send = () =>
    call(world.app, {
      method: 'POST',
      url: `/api/v1/dossiers/${dossier}/attachments`,
      token: world.memberA.token,
      ...multipart([
        { name: 'file', filename: 'a.pdf', contentType: 'application/pdf', data: light },
        { name: 'type', data: 'permit' },
      ]),
    });
  const weights = async () =>
    (
      await world.stores.accounts.db
        .selectFrom('attachments')
        .select(['id', 'copy_weight'])
        .where('id', 'in', olds)
        .execute()
    ).map((row) => row.copy_weight);
  // Under load the old ones' checks run out of time: not "weighs nothing", but not weighed yet.
  slowLength = heavy.length;
  expect((await send()).statusCode).toBe(201);
  expect(await weights()).toEqual([null, null, null]);
  // The next upload weighs them; the cap counts them from then on.
  slowLength = undefined;
  expect((await send()).statusCode).toBe(201);
  expect(await weights()).toEqual([copyWeight, copyWeight, copyWeight]);
});
