/**
 * Settings of every server a test starts, in process (test/helpers/world.ts) or as a command
 * (test/helpers/servers.ts). Suites send far more requests per token than a client should, and
 * on a loaded machine scheduling alone can stall the event loop for seconds, so shedding load
 * would fail them at random. The rate limit and the overload protection have their own tests,
 * which set their own values.
 */
export const TEST_SERVER_ENV = {
  PROPDATA_RATE_LIMIT_PER_MINUTE: '1000000',
  PROPDATA_MAX_EVENT_LOOP_DELAY_MS: '600000',
} as const;
