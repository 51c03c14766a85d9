import type { DuckDBConnection } from '@duckdb/node-api';
import { limits } from '../limits.js';
import type { CountryCode, DivisionLevel } from '../market/countries.js';
import { divisionOfferCount } from '../market/queries/division-slice.js';

/**
 * What a request costs, in units that grow with the work it makes: an offer statistic is
 * computed once per matching offer and group, so a request costs its offers × statistics ×
 * groups; a valuation fits or reuses a regional model per property and date, so it costs its
 * pairs. `limits.work` says from which cost a request counts as costly.
 */
export function statisticsCost(rows: number, statistics: number, groups: number): number {
  return Math.max(rows, 1) * Math.max(statistics, 1) * Math.max(groups, 1);
}

/** Units of the server's thread one cell of a statistics answer costs (`limits.statistics`). */
export const CELL_UNITS = limits.statistics.cellUnits;

/** What the cells of a statistics answer cost the server's thread, whichever path computes them. */
export function answerCost(statistics: number, groups: number): number {
  return CELL_UNITS * Math.max(statistics, 1) * Math.max(groups, 1);
}

/**
 * A PDF report is costly whatever it holds: it values the dossier twice, reads the offers and
 * projects around it, loads its covers and attachments (limits.attachments.bytesPerDossier) and then takes the
 * one render worker every organization shares for 0.1–0.3 s of CPU (more with many attached
 * pages). Taking turns keeps one organization's burst of reports from queueing everyone else's
 * in that worker, and bounds how many of its reports are loaded at once.
 */
export const REPORT_IS_COSTLY = true;

/** Divisions whose offer count is kept, per snapshot: more than there are level-6 to 8 divisions
 * busy at once, small enough to stay a few hundred kilobytes. */
const KEPT_COUNTS = 20_000;

/**
 * The number of offers in a division, the row estimate of a statistics request: counted once per
 * snapshot and division (a count over the division's offers is a small part of any statistic
 * over them), then kept.
 */
export class DivisionRows {
  private snapshot = '';
  private readonly counts = new Map<string, number>();

  async estimate(
    db: DuckDBConnection,
    snapshotFile: string,
    division: { countryCode: CountryCode; level: DivisionLevel; id: string },
  ): Promise<number> {
    if (snapshotFile !== this.snapshot) {
      this.snapshot = snapshotFile;
      this.counts.clear();
    }
    const key = `${division.countryCode}|${String(division.level)}|${division.id}`;
    const known = this.counts.get(key);
    if (known !== undefined) return known;
    const n = await divisionOfferCount(db, division);
    if (this.counts.size >= KEPT_COUNTS) this.counts.clear();
    this.counts.set(key, n);
    return n;
  }
}
