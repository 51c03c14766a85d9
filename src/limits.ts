/**
 * Every server limit in one place. The README's "Limits" table mirrors this file; change both.
 */
export const limits = {
  /** JSON request bodies. Large enough for 50 statistics with 24 groups each, small enough to
   * keep a hostile client from making the parser hold megabytes per connection. */
  jsonBodyBytes: 1024 * 1024,
  /** Slow-loris protection: the whole request must arrive within this time. */
  requestTimeoutMs: 30_000,
  /** Idle keep-alive connections are closed after this; above common load balancer idle (60 s). */
  keepAliveTimeoutMs: 72_000,
  /** On SIGTERM/SIGINT, in-flight requests get this long before the process exits anyway. */
  shutdownGraceMs: 10_000,
  /** Failed logins: counted per username and per client address over a fixed window. Counting
   * failures (not attempts) keeps scripts that log in correctly unaffected. */
  login: {
    windowMs: 15 * 60_000,
    maxFailuresPerUsername: 10,
    maxFailuresPerAddress: 50,
  },
  /** Report templates per owner: enough for every country and purpose, small enough that a
   * template list stays one short answer. Beyond them creation is `409 conflict`. */
  templates: {
    perUser: 100,
    perOrganization: 200,
  },
  /** At most this many validation errors are listed in one problem response. */
  problemErrors: 20,
} as const;
