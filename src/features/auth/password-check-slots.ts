export interface PasswordCheckBounds {
  /** Checks one client address may have under way at once. */
  perAddress: number;
  /** Checks under way at once in the process. */
  total: number;
}

/** A granted slot; release it exactly once when the check is over. */
export interface PasswordCheckSlot {
  release(): void;
}

/** Why no slot was granted: the address has its share, or the process is full. */
export interface PasswordCheckRefusal {
  refused: 'address' | 'total';
}

/**
 * Bounds the password checks under way. A check costs a thread of the shared pool for a long
 * time; without a bound, one client sending many logins at once queues everyone else's behind
 * its own. A request beyond the bound is refused at once instead of waiting for a slot.
 */
export class PasswordCheckSlots {
  private readonly perAddress = new Map<string, number>();
  private total = 0;

  constructor(private readonly bounds: PasswordCheckBounds) {}

  /** Checks under way: in all, or from one address. */
  inUse(address?: string): number {
    return address === undefined ? this.total : (this.perAddress.get(address) ?? 0);
  }

  acquire(address: string): PasswordCheckSlot | PasswordCheckRefusal {
    const held = this.inUse(address);
    if (held >= this.bounds.perAddress) return { refused: 'address' };
    if (this.total >= this.bounds.total) return { refused: 'total' };
    this.perAddress.set(address, held + 1);
    this.total += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.total -= 1;
        const left = this.inUse(address) - 1;
        if (left === 0) this.perAddress.delete(address);
        else this.perAddress.set(address, left);
      },
    };
  }
}
