import { paragraph } from './page.js';
import type { SectionContext } from './sections.js';

/**
 * The environment section (view, noise, nuisance). The market data holds no environmental
 * data of any kind, so the section says so in every case rather than showing anything else.
 */
export function environment(ctx: SectionContext): void {
  paragraph(ctx.doc, ctx.t('noData'));
}
