import { describe, expect, it } from 'vitest';
import { LoginThrottle } from './login-throttle.js';

describe('LoginThrottle', () => {
  it('blocks a key after its failures fill the window and frees it when the window ends', () => {
    let now = 1_000_000;
    const throttle = new LoginThrottle(
      { username: { windowMs: 60_000, maxFailures: 3 } },
      () => now,
    );
    for (let i = 0; i < 2; i++) throttle.recordFailure('username', 'anna');
    expect(throttle.retryAfterSeconds('username', 'anna')).toBe(0);
    throttle.recordFailure('username', 'anna');
    expect(throttle.retryAfterSeconds('username', 'anna')).toBe(60);
    expect(throttle.retryAfterSeconds('username', 'bob')).toBe(0);
    now += 45_500;
    expect(throttle.retryAfterSeconds('username', 'anna')).toBe(15);
    now += 14_500;
    expect(throttle.retryAfterSeconds('username', 'anna')).toBe(0);
  });

  it('forgets a key on reset (a successful login)', () => {
    const throttle = new LoginThrottle({ username: { windowMs: 60_000, maxFailures: 1 } });
    throttle.recordFailure('username', 'anna');
    expect(throttle.retryAfterSeconds('username', 'anna')).toBeGreaterThan(0);
    throttle.reset('username', 'anna');
    expect(throttle.retryAfterSeconds('username', 'anna')).toBe(0);
  });
});
