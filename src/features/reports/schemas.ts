import { Type, type Static } from 'typebox';
import { pdfResponse } from '../../http/download.js';
import { PatternText, StrictObject } from '../../http/schemas.js';
import { DateText } from '../valuation/schemas.js';
import { LOCALE_MESSAGE, LOCALE_PATTERN, LOCALES } from './messages.js';

export const ReportParams = StrictObject({
  id: Type.String({ format: 'uuid', description: 'The dossier id.' }),
});

export const ReportRequest = Object.assign(
  StrictObject({
    templateId: Type.String({
      format: 'uuid',
      description: 'A template the caller can see, of the dossier’s country.',
    }),
    locale: Type.Optional(
      PatternText(LOCALE_PATTERN, LOCALE_MESSAGE, {
        description:
          `The report’s language (default \`en\`): ${LOCALES.map((l) => `\`${l}\``).join(', ')}, ` +
          'also with a region (`de_CH`, `fr-FR`): the language decides the texts, the region how ' +
          'numbers and dates are written where the language is one of the region’s own (else ' +
          'the property’s country’s, where it is; else the language’s main market’s; English ' +
          'is British everywhere). Another language is 400.',
      }),
    ),
    date: Type.Optional(
      Type.Unsafe<string>({
        ...DateText,
        description:
          '`YYYY-MM-DD`: the date the report compares today with: the property is valued ' +
          'today and at this date, and offers are counted since it. Not after today, not ' +
          'before the country’s first offer. Default: a year before today (or the country’s ' +
          'first offer day, if later), so that the report shows a year of comparable offers ' +
          'and the value’s change over it; compared with today, it would find no offers.',
      }),
    ),
  }),
  { examples: [{ templateId: '0f8c2a8e-5d1b-4a7e-9a53-2b8e0c6a9f10', locale: 'de' }] },
);
export type ReportRequest = Static<typeof ReportRequest>;

export const ReportPdf = pdfResponse(
  'The report: a title page, then the template’s enabled sections in order, each an outline ' +
    'entry, between the covers the template asks for.',
);
