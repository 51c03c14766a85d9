import { mib } from '../bytes-text.js';
import { QueueRefusal } from './fair-queue.js';

/**
 * The bytes of uploads one organization may have under way at once: read into memory, checked
 * and not yet stored. An upload that would go beyond is refused before its body is read
 * (`QueueRefusal` → `429` with `Retry-After`), so a client sending many large files at once holds
 * a bounded share of the server's memory instead of all of it; one upload alone is always let
 * in. An upload counts its declared length, or the most a body may have when it declares none.
 */
export class UploadBudget {
  private readonly taken = new Map<string, number>();

  constructor(private readonly bytesPerOrganization: number) {}

  /** Bytes under way, all organizations together: for metrics and tests. */
  get size(): number {
    let bytes = 0;
    for (const taken of this.taken.values()) bytes += taken;
    return bytes;
  }

  async run<T>(organization: string, bytes: number, work: () => Promise<T>): Promise<T> {
    const taken = this.taken.get(organization) ?? 0;
    if (taken > 0 && taken + bytes > this.bytesPerOrganization) {
      throw new QueueRefusal(
        'organization_busy',
        `This organization already has ${mib(taken)} MiB of uploads under way; at most ` +
          `${mib(this.bytesPerOrganization)} MiB may be at once: send the next when one has been answered`,
      );
    }
    this.taken.set(organization, taken + bytes);
    try {
      return await work();
    } finally {
      const left = (this.taken.get(organization) ?? bytes) - bytes;
      if (left > 0) this.taken.set(organization, left);
      else this.taken.delete(organization);
    }
  }
}
