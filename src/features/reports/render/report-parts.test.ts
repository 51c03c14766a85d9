import { expect, it } from 'vitest';
import type { Section } from '../../templates/schemas.js';
import { reportParts } from './report-parts.js';

const section = (type: Section['type'], enabled = true): Section => ({
  type,
  enabled,
  configuration: {},
});

/** Each part as the types it shows: a section's type, or the types of a run said in one. */
const shapeOf = (sections: Section[], withDocuments: string[]) =>
  reportParts(sections, (kind) => withDocuments.includes(kind)).map((part) =>
    'section' in part ? part.section.type : part.emptyDocuments.map((s) => s.type),
  );

it('says document sections without documents in a row once, and keeps every other section', () => {
  const sections = [
    section('overview'),
    section('attachments.floorplan'),
    section('attachments.permit'),
    section('valuation'),
    section('attachments.marketing'),
    section('attachments.valuation', false),
    section('attachments.other'),
    section('cadastre'),
    section('attachments.valuation'),
  ];
  expect(shapeOf(sections, [])).toEqual([
    'overview',
    ['attachments.floorplan', 'attachments.permit'],
    'valuation',
    // A hidden section between them does not part a run.
    ['attachments.marketing', 'attachments.other'],
    'cadastre',
    // One alone stays a section of its own, with its own statement.
    'attachments.valuation',
  ]);
  // A section with documents parts a run, and is shown as itself.
  expect(shapeOf(sections, ['permit', 'other'])).toEqual([
    'overview',
    'attachments.floorplan',
    'attachments.permit',
    'valuation',
    'attachments.marketing',
    'attachments.other',
    'cadastre',
    'attachments.valuation',
  ]);
  expect(shapeOf([section('attachments.other', false)], [])).toEqual([]);
});
