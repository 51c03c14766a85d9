import { attachmentKindOf, isShown } from '../../templates/section-rules.js';
import type { Section } from '../../templates/schemas.js';

/**
 * What a report shows, in the template's order: one section, or a run of document sections
 * (attachments of several kinds) none of which has a document, said in one statement.
 */
export type ReportPart = { section: Section } | { emptyDocuments: Section[] };

/**
 * The template's shown sections as report parts. Two or more document sections in a row without
 * documents are one part: a French appraisal of a dossier without attachments had five bands in
 * a row each saying "no documents of this kind", the last on a page of its own.
 */
export function reportParts(
  sections: readonly Section[],
  hasDocuments: (kind: string) => boolean,
): ReportPart[] {
  const parts: ReportPart[] = [];
  let run: Section[] = [];
  const endRun = () => {
    if (run.length === 1 && run[0]) parts.push({ section: run[0] });
    if (run.length > 1) parts.push({ emptyDocuments: run });
    run = [];
  };
  for (const section of sections) {
    if (!isShown(section)) continue;
    const kind = attachmentKindOf(section.type);
    if (kind !== undefined && !hasDocuments(kind)) {
      run.push(section);
      continue;
    }
    endRun();
    parts.push({ section });
  }
  endRun();
  return parts;
}
