import { describe, expect, it } from 'vitest';
import { LoginThrottle, type LoginAttempt } from './login-throttle.js';

function reserved(throttle: LoginThrottle, keys: Record<string, string>): LoginAttempt {
  const attempt = throttle.reserve(keys);
  if ('retryAfterSeconds' in attempt) throw new Error('refused');
  return attempt;
}

describe('LoginThrottle', () => {
  it('blocks a key after its failures fill the window and frees it when the window ends', () => {
    let now = 1_000_000;
    const throttle = new LoginThrottle(
      { username: { windowMs: 60_000, maxFailures: 3 } },
      () => now,
    );
    for (let i = 0; i < 2; i++) reserved(throttle, { username: 'anna' }).fail();
    expect(throttle.retryAfterSeconds('username', 'anna')).toBe(0);
    reserved(throttle, { username: 'anna' }).fail();
    expect(throttle.retryAfterSeconds('username', 'anna')).toBe(60);
    expect(throttle.reserve({ username: 'anna' })).toEqual({ retryAfterSeconds: 60 });
    expect(throttle.retryAfterSeconds('username', 'bob')).toBe(0);
    now += 45_500;
    expect(throttle.retryAfterSeconds('username', 'anna')).toBe(15);
    now += 14_500;
    expect(throttle.retryAfterSeconds('username', 'anna')).toBe(0);
  });

  it('counts checks under way, so concurrent attempts cannot all pass before one fails', () => {
    const throttle = new LoginThrottle({
      username: { windowMs: 60_000, maxFailures: 3 },
      address: { windowMs: 60_000, maxFailures: 5 },
    });
    const attempts = Array.from({ length: 10 }, (_, i) =>
      throttle.reserve({ username: 'anna', address: `10.0.0.${String(i)}` }),
    );
    const granted = attempts.filter((a): a is LoginAttempt => !('retryAfterSeconds' in a));
    expect(granted).toHaveLength(3);
    expect(attempts.slice(3)).toEqual(Array(7).fill({ retryAfterSeconds: 60 }));
    // Per address, too, whatever the usernames.
    const fromOne = Array.from({ length: 8 }, (_, i) =>
      throttle.reserve({ username: `u${String(i)}`, address: '10.9.9.9' }),
    );
    expect(fromOne.filter((a) => !('retryAfterSeconds' in a))).toHaveLength(5);
  });

  it('releases a reservation that succeeds or is cancelled, and forgets failures per rule', () => {
    const throttle = new LoginThrottle({
      username: { windowMs: 60_000, maxFailures: 2, resetOnSuccess: true },
      address: { windowMs: 60_000, maxFailures: 2 },
    });
    reserved(throttle, { username: 'anna', address: 'a' }).fail();
    reserved(throttle, { username: 'anna', address: 'b' }).cancel();
    const ok = reserved(throttle, { username: 'anna', address: 'a' });
    expect(throttle.retryAfterSeconds('username', 'anna')).toBeGreaterThan(0);
    ok.succeed();
    ok.fail(); // a second outcome is ignored
    expect(throttle.retryAfterSeconds('username', 'anna')).toBe(0);
    // The address keeps its failure: one good account does not reset guesses from an address.
    reserved(throttle, { username: 'bob', address: 'a' }).fail();
    expect(throttle.retryAfterSeconds('address', 'a')).toBeGreaterThan(0);
  });

  it('carries checks under way into the next window', () => {
    let now = 0;
    const throttle = new LoginThrottle({ username: { windowMs: 1000, maxFailures: 2 } }, () => now);
    const slow = reserved(throttle, { username: 'anna' });
    reserved(throttle, { username: 'anna' }).fail();
    now = 1500;
    reserved(throttle, { username: 'anna' }).fail();
    expect(throttle.retryAfterSeconds('username', 'anna')).toBe(1);
    slow.fail();
    expect(throttle.retryAfterSeconds('username', 'anna')).toBe(1);
  });
});
