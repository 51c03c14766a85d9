import { limits } from '../../limits.js';

export interface ThrottleRule {
  windowMs: number;
  maxFailures: number;
}

interface Window {
  startedAt: number;
  failures: number;
}

/**
 * Counts failed logins per key (a username or a client address) in fixed windows. Kept in memory:
 * with several processes each counts on its own, so the effective limit is per process (README).
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
    if (!window || window.failures < limit.maxFailures) return 0;
    return Math.max(1, Math.ceil((window.startedAt + limit.windowMs - this.now()) / 1000));
  }

  recordFailure(rule: string, key: string): void {
    const limit = this.rule(rule);
    const id = `${rule}:${key}`;
    const window = this.current(id, limit);
    if (window) window.failures += 1;
    else this.windows.set(id, { startedAt: this.now(), failures: 1 });
    this.sweep();
  }

  reset(rule: string, key: string): void {
    this.windows.delete(`${rule}:${key}`);
  }

  private rule(name: string): ThrottleRule {
    const rule = this.rules[name];
    if (!rule) throw new Error(`unknown throttle rule ${name}`);
    return rule;
  }

  private current(id: string, rule: ThrottleRule): Window | undefined {
    const window = this.windows.get(id);
    if (window && this.now() - window.startedAt >= rule.windowMs) {
      this.windows.delete(id);
      return undefined;
    }
    return window;
  }

  // Bounded memory under a spray of random usernames: drop expired windows now and then.
  private sweep(): void {
    if (this.windows.size < 10_000) return;
    const longest = Math.max(...Object.values(this.rules).map((r) => r.windowMs));
    const now = this.now();
    for (const [id, window] of this.windows) {
      if (now - window.startedAt >= longest) this.windows.delete(id);
    }
  }
}

/** The login endpoint's throttle: failures per username and per client address, `limits.login`. */
export function createLoginThrottle(now?: () => number): LoginThrottle {
  const { windowMs, maxFailuresPerUsername, maxFailuresPerAddress } = limits.login;
  return new LoginThrottle(
    {
      username: { windowMs, maxFailures: maxFailuresPerUsername },
      address: { windowMs, maxFailures: maxFailuresPerAddress },
    },
    now,
  );
}
