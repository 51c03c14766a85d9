import { limits } from '../../limits.js';

export interface ThrottleRule {
  windowMs: number;
  /** Password checks a key may have evaluated per window: failures and checks under way. */
  maxFailures: number;
  /** A successful login forgets the key's failures (a username's, not an address's: one good
   * account must not reset the count of guesses from an address at other accounts). */
  resetOnSuccess?: boolean;
}

interface Window {
  startedAt: number;
  failures: number;
  /** Checks reserved and not yet finished: each may still turn out to be a failure. */
  inFlight: number;
}

/** One reserved password check; say how it ended exactly once. */
export interface LoginAttempt {
  /** The password was wrong (or the user unknown): the reservation becomes a failure. */
  fail(): void;
  /** The password was right: the reservation is released (and failures forgotten, per rule). */
  succeed(): void;
  /** The check never ran (refused for another reason): the reservation is released. */
  cancel(): void;
}

/** Which key of which rule an attempt counts against, e.g. `{ username: 'anna' }`. */
export type ThrottleKeys = Record<string, string>;

/**
 * Counts failed logins per key (a username or a client address) in fixed windows. An attempt is
 * reserved before its password is checked and counts as a failure until it has succeeded, so
 * concurrent guesses cannot all pass the check before the first of them is counted: at most
 * `maxFailures` checks per key are ever evaluated in a window. Kept in memory: with several
 * processes each counts on its own, so the effective limit is per process (README).
 */
export class LoginThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly rules: Record<string, ThrottleRule>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `key` (of kind `rule`) may try again, or 0 when it may now. */
  retryAfterSeconds(rule: string, key: string): number {
    const limit = this.rule(rule);
    const window = this.current(`${rule}:${key}`, limit);
    if (!window || window.failures + window.inFlight < limit.maxFailures) return 0;
    return Math.max(1, Math.ceil((window.startedAt + limit.windowMs - this.now()) / 1000));
  }

  /**
   * Reserves one password check against every key, or returns how many seconds to wait when any
   * of them is used up (then nothing is reserved). Synchronous, so no other attempt can come in
   * between the check and the reservation.
   */
  reserve(keys: ThrottleKeys): LoginAttempt | { retryAfterSeconds: number } {
    const wait = Math.max(
      0,
      ...Object.entries(keys).map(([rule, key]) => this.retryAfterSeconds(rule, key)),
    );
    if (wait > 0) return { retryAfterSeconds: wait };
    const ids = Object.entries(keys).map(([rule, key]) => {
      this.window(rule, key).inFlight += 1;
      return [rule, key] as const;
    });
    this.sweep();
    let open = true;
    const finish = (outcome: 'fail' | 'succeed' | 'cancel') => {
      if (!open) return;
      open = false;
      for (const [rule, key] of ids) {
        const window = this.window(rule, key);
        window.inFlight -= 1;
        if (outcome === 'fail') window.failures += 1;
        if (outcome === 'succeed' && this.rule(rule).resetOnSuccess) window.failures = 0;
        this.dropIfIdle(`${rule}:${key}`, window);
      }
    };
    return {
      fail: () => finish('fail'),
      succeed: () => finish('succeed'),
      cancel: () => finish('cancel'),
    };
  }

  private rule(name: string): ThrottleRule {
    const rule = this.rules[name];
    if (!rule) throw new Error(`unknown throttle rule ${name}`);
    return rule;
  }

  /** The key's current window, begun now if there is none. */
  private window(rule: string, key: string): Window {
    const id = `${rule}:${key}`;
    const existing = this.current(id, this.rule(rule));
    if (existing) return existing;
    const window = { startedAt: this.now(), failures: 0, inFlight: 0 };
    this.windows.set(id, window);
    return window;
  }

  private current(id: string, rule: ThrottleRule): Window | undefined {
    const window = this.windows.get(id);
    if (window && this.now() - window.startedAt >= rule.windowMs) {
      // Checks still under way belong to the next window: they have not been counted yet.
      if (window.inFlight === 0) {
        this.windows.delete(id);
        return undefined;
      }
      window.startedAt = this.now();
      window.failures = 0;
    }
    return window;
  }

  private dropIfIdle(id: string, window: Window): void {
    if (window.failures === 0 && window.inFlight === 0) this.windows.delete(id);
  }

  // Bounded memory under a spray of random usernames: drop expired windows now and then.
  private sweep(): void {
    if (this.windows.size < 10_000) return;
    const longest = Math.max(...Object.values(this.rules).map((r) => r.windowMs));
    const now = this.now();
    for (const [id, window] of this.windows) {
      if (window.inFlight === 0 && now - window.startedAt >= longest) this.windows.delete(id);
    }
  }
}

/** The login endpoint's throttle: failures per username and per client address, `limits.login`. */
export function createLoginThrottle(now?: () => number): LoginThrottle {
  const { windowMs, maxFailuresPerUsername, maxFailuresPerAddress } = limits.login;
  return new LoginThrottle(
    {
      username: { windowMs, maxFailures: maxFailuresPerUsername, resetOnSuccess: true },
      address: { windowMs, maxFailures: maxFailuresPerAddress },
    },
    now,
  );
}
