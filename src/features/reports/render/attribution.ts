import { paragraph, STYLE } from './page.js';
import type { SectionContext } from './sections.js';

/**
 * The sources of the data a section shows, each once: the attribution their licences ask for
 * (the `source` of every places row), printed under the section.
 */
export function sourcesNote(ctx: SectionContext, sources: (string | null)[]): void {
  const distinct = [...new Set(sources.filter((s): s is string => s !== null))].sort();
  if (distinct.length === 0) return;
  paragraph(ctx.doc, ctx.t('labelled', { label: ctx.t('sources'), value: distinct.join('; ') }), {
    size: 8,
    color: STYLE.grey,
  });
}
