import type { EventEmitter } from 'node:events';
import { AppError } from '../../http/problem.js';
import { limits } from '../../limits.js';

/** Seconds a refused report's client is told to wait: about how long the held answers last. */
const RETRY_AFTER_SECONDS = Math.ceil(limits.timeouts.sendMs / 1000);

/**
 * The bytes of report answers handed to the network and not yet taken by their clients. A report
 * is one buffer of up to about 100 MB, held until its client has read it or the send deadline
 * cuts the connection; nothing else bounds how many a client that never reads can have held at
 * once. New reports are refused while those held reach `totalBytes` in the process (`503`) or
 * `perOrganizationBytes` for the caller's organization (`429`): the organization waits for its
 * own clients, the others' reports are refused only when the process holds too much.
 */
export class UnsentReports {
  private total = 0;
  private readonly byOrganization = new Map<string, number>();

  constructor(
    private readonly totalBytes: number = limits.reports.unsentBytes,
    private readonly perOrganizationBytes: number = limits.reports.unsentBytesPerOrganization,
  ) {}

  /** Throws the refusal when a new report of `organizationId` would add to too much held. */
  admit(organizationId: string): void {
    const headers = { 'retry-after': String(RETRY_AFTER_SECONDS) };
    const mib = (bytes: number) => String(Math.round(bytes / 1024 / 1024));
    if ((this.byOrganization.get(organizationId) ?? 0) >= this.perOrganizationBytes) {
      throw new AppError(
        'rate_limited',
        `The organization's clients have not yet taken ${mib(this.perOrganizationBytes)} MiB or more of reports; retry once they have`,
        { headers },
      );
    }
    if (this.total >= this.totalBytes) {
      throw new AppError('overloaded', 'Too many reports are still being sent; retry later', {
        headers,
      });
    }
  }

  /**
   * Counts `bytes` as held until `response` has handed its last byte over or was closed; not at
   * all when its client went away while the report was made (its `close` has passed already).
   */
  hold(
    organizationId: string,
    bytes: number,
    response: EventEmitter & { readonly destroyed: boolean },
  ): void {
    if (response.destroyed) return;
    this.total += bytes;
    this.byOrganization.set(organizationId, (this.byOrganization.get(organizationId) ?? 0) + bytes);
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      this.total -= bytes;
      const left = (this.byOrganization.get(organizationId) ?? 0) - bytes;
      if (left > 0) this.byOrganization.set(organizationId, left);
      else this.byOrganization.delete(organizationId);
    };
    response.once('finish', release);
    response.once('close', release);
  }

  /** Bytes held, in all and for one organization (for tests and metrics). */
  held(organizationId?: string): number {
    return organizationId === undefined
      ? this.total
      : (this.byOrganization.get(organizationId) ?? 0);
  }
}
