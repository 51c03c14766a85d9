/**
 * An uploaded file (a cover or a dossier attachment), read as multipart/form-data: the file
 * itself, 25 MiB, at least the 25 MB the API promises (beyond it → 413); and the whole request
 * body, the file plus room for the other fields, the multipart boundaries and part headers. A
 * declared Content-Length above it is refused before reading; a body without one (chunked) is
 * counted as it arrives and refused once beyond it (→ 413).
 */
const uploadBytes = {
  fileBytes: 25 * 1024 * 1024,
  requestBytes: 25 * 1024 * 1024 + 64 * 1024,
};

/**
 * Every server limit in one place. The README's "Limits" table mirrors this file; change both.
 */
export const limits = {
  /** JSON request bodies. Large enough for 50 statistics with 24 groups each, small enough to
   * keep a hostile client from making the parser hold megabytes per connection. */
  jsonBodyBytes: 1024 * 1024,
  /** Nesting of objects and arrays in a JSON body (and query): no request needs more than a
   * handful of levels, and code that walks a value recursively (a merge patch) must not run out
   * of stack on a crafted one. Beyond it → 400. */
  jsonDepth: 32,
  /** Values (objects, arrays, strings, numbers…, at any depth) in a JSON body or a query. The
   * largest request takes a few thousand (50 statistics with 24 groups); beyond this → 400 before
   * validation, which otherwise collects one error per unknown property or bad item: 80,000
   * unknown keys in 1 MiB cost 120–330 ms of event loop. */
  jsonValues: 10_000,
  /** The request line and headers (Node's default, stated here): a bearer token and the usual
   * headers take well under 2 KiB. Beyond it → 431, connection closed. */
  requestHeaderBytes: 16 * 1024,
  /** Characters of one path parameter (the router's default, stated here): ids are uuids of 36.
   * Beyond it → 400. */
  pathParamChars: 100,
  /** Characters of a field's path a validation error repeats (cut with `…`): a body of a few
   * long unknown keys would otherwise come back (and go to the log) several times over. */
  errorPathChars: 200,
  /** How long a client may take; a slow or stalled client is answered `408` and disconnected
   * instead of holding a connection (and the memory of its half-read request) open. */
  timeouts: {
    /** Slow-loris protection: the request line and headers (a few KB; the first request of a
     * connection counts from the connect) must arrive within this. */
    headersMs: 10_000,
    /** The whole request, headers and body, must arrive within this: a 25 MiB cover needs about
     * 7 Mbit/s. Tied to the upload limit, not to the deployment, so not configurable. */
    requestMs: 30_000,
    /** Default of PROPDATA_KEEP_ALIVE_TIMEOUT_MS: idle keep-alive connections are closed after
     * this. It must exceed the idle timeout of a proxy in front (often 60 s), or the proxy may
     * send a request on a connection the server is just closing; that idle timeout depends on
     * the deployment, hence the variable. */
    defaultKeepAliveMs: 72_000,
    /** Node checks the header and request deadlines on a timer; a deadline fires up to this much
     * late. Node's own interval (30 s) would let a 30 s request run for a minute. */
    checkIntervalMs: 1_000,
    /** The whole response must have been taken by the client within this of its start, or the
     * connection is closed: a client that stops reading cannot keep the connection and the
     * unsent response in memory. Like the request deadline, about 3.5 Mbit/s for the largest
     * answer, a 25 MiB cover. */
    sendMs: 60_000,
    /** A request must be answered (its response started) within this of its arrival, else
     * `503` and the connection closed. Every wait the service knows of ends well within it (the
     * longest: an upload may take 30 s to arrive, wait 45 s for the file check and be checked
     * for 15 s; older PDFs are weighed after it only where that ends in time); this bounds the
     * ones it does not know of. */
    answerMs: 120_000,
  },
  /** On SIGTERM/SIGINT, in-flight requests get this long before the process exits anyway. */
  shutdownGraceMs: 10_000,
  /** Failed logins: counted per username and per client address over a fixed window. A login
   * is counted from before its password check until it succeeds, so concurrent guesses are
   * limited too; counting failures (not successes) keeps scripts that log in correctly
   * unaffected. */
  login: {
    windowMs: 15 * 60_000,
    maxFailuresPerUsername: 10,
    maxFailuresPerAddress: 50,
    /** Password checks under way at once, per client address and in the process. A check holds
     * a thread of Node's pool (4 by default, UV_THREADPOOL_SIZE) for about 100 ms of CPU; beyond
     * the bounds a login is refused at once (`429` for the address, `503` for the process, both
     * with `Retry-After`), so a burst from one client cannot queue everyone else's logins. */
    concurrentChecksPerAddress: 2,
    concurrentChecks: 8,
    /** Retry-After of a login refused for the bounds above: a check is over within about this. */
    busyRetryAfterSeconds: 1,
  },
  /** Token owners kept in memory after a lookup (see src/accounts/token-cache.ts): for this
   * long (overridable with PROPDATA_TOKEN_CACHE_MS, 0 = off) a token another process revoked
   * may still be accepted here; a revocation in this process takes effect at once. At most
   * `maxEntries` tokens are kept (the oldest go first). */
  tokenCache: {
    defaultMs: 5_000,
    maxMs: 60_000,
    maxEntries: 10_000,
  },
  /** Report templates per owner: enough for every country and purpose, small enough that a
   * template list stays one short answer. Beyond them creation is `409 conflict`. */
  templates: {
    perUser: 100,
    perOrganization: 200,
    /** Characters of a title as sent (it must have one that is not white space). */
    titleChars: 200,
    /** Configuration items of one section: more than any section has, so a hostile object
     * stays small. */
    configurationItems: 20,
  },
  /** Offer statistics: what one request may ask for, so that it stays one bounded query. */
  statistics: {
    /**
     * Units of the server's thread one cell of a statistics answer (a statistic of a group)
     * costs, however few offers it counts (src/work/cost.ts): measured on 2026-11-25 with 50
     * percentiles over 600 months of a postcode of one offer, 1.7 µs a cell against 0.026 µs an
     * offer statistic. Without it such a request (30,000 cells, 45 ms of the thread) cost 30,000
     * units and ran as cheap, and one user within the request limit took the whole thread.
     */
    cellUnits: 64,
    perRequest: 50,
    /** Value ranges of a `groupBy` on a metric. */
    groups: 24,
    /** Months, quarters or years of a `groupBy` on `start_date`. */
    periods: 600,
    maxRadiusMeters: 10_000,
    /** Statistics over a division's rows in memory compute on the server's thread and give the
     * event loop a turn after this much computing (between metrics and groups), so that other
     * requests are read and answered in between. */
    sliceTurnMs: 5,
    /** Every number in a request lies within ±(2^53 − 1): beyond it JSON numbers lose
     * precision, and an integer-valued one would no longer fit the 64-bit integer the query
     * binds it as. */
    maxNumber: Number.MAX_SAFE_INTEGER,
    /** Upper end of the default memory for division slices (PROPDATA_STATS_CACHE_MB): at
     * 90 bytes per offer, 1 GiB holds about 11 M offers. */
    defaultCacheMaxMb: 1024,
  },
  /** Administrative divisions listed per page (`limit`), and without `limit`. */
  divisions: {
    pageSize: 500,
    defaultPageSize: 50,
    /** The furthest a page may start (`offset`): beyond the largest country's divisions. */
    maxOffset: 1_000_000,
  },
  /** Requests per user (or, before authentication, per client address) and minute on
   * `/api` and `/auth` routes; beyond it `429` with `Retry-After`. The default (overridable with
   * PROPDATA_RATE_LIMIT_PER_MINUTE, 0 = off) lets an interactive client or a batch job run at
   * 20 requests per second while stopping a runaway loop. Counted per process. */
  rateLimit: {
    defaultPerMinute: 1200,
    windowMs: 60_000,
  },
  /** Open connections per server process (`PROPDATA_MAX_CONNECTIONS`, else from the open-files
   * limit): each holds a file descriptor, and a process out of descriptors fails where it opens
   * any (the load-shedding sampler's read of its own memory use threw and ended the process at
   * about 1,000 idle keep-alive connections under a limit of 1,024). Beyond the cap a new
   * connection is closed at once, and the idle keep-alive connections are closed to make room. */
  connections: {
    /** Share of the open-files limit connections may take; the rest is the stores', workers'
     * and logs'. */
    shareOfOpenFiles: 0.8,
    /** Descriptors kept back beyond that share. */
    reservedFiles: 64,
    /** At most this many whatever the limit: each costs memory too. */
    ceiling: 10_000,
    /** Where the open-files limit cannot be read. */
    fallback: 1000,
  },
  organizations: {
    /** Characters of an organization's name (as a title's, counted in characters: an emoji is
     * one, not two UTF-16 units). */
    nameChars: 200,
  },
  /** The account database. */
  accountStore: {
    /** Connections each process may open to PostgreSQL (overridable with
     * PROPDATA_DB_POOL_SIZE): account queries are short, so a few suffice. With `--workers N`
     * the processes together may open N times as many, which PostgreSQL's `max_connections`
     * must allow, with room for the command line; a start that does not fit says so. */
    defaultPostgresPoolSize: 10,
    /** How long a statement waits for a lock another holds (SQLite's file: retried after
     * pauses, `sqlite-lock-wait.ts`; PostgreSQL's rows: `lock_timeout`) before it gives up, and its request is `503`: a lock held
     * from outside (a maintenance session) must not hold requests, and their pool connections,
     * for as long as it lasts. Migrations at start wait as long as it takes. */
    lockWaitMs: 5_000,
    /** The share of a process's PostgreSQL pool one organization's transactions that take its
     * row may hold at once (at least one; `organization-turns.ts`): with the default pool of
     * 10, two, so that a lock held on one organization's row leaves eight connections to the
     * others. */
    organizationShareOfPool: 0.25,
    /** A request that finds the database refusing connections (too many, starting up, down)
     * or a lock held beyond `lockWaitMs` is answered `503` with this Retry-After. */
    retryAfterSeconds: 5,
  },
  /** Overload protection: when the event loop lags by more than this (overridable with
   * PROPDATA_MAX_EVENT_LOOP_DELAY_MS), new requests get `503` with `Retry-After` instead of
   * queueing behind work the process cannot finish in time. `/health` is always answered. */
  overload: {
    defaultMaxEventLoopDelayMs: 1000,
    /** The lag is the mean over windows of this, or of the limit if that is longer. */
    sampleIntervalMs: 250,
    retryAfterSeconds: 10,
  },
  /** Dossiers: an organization keeps at most `perOrganization` (the next creation is
   * `409 conflict`); lists are paged, `defaultPageSize` items unless `limit` (≤ `pageSize`) says. */
  dossiers: {
    perOrganization: 10_000,
    /** Coordinates given for a property must have a postcode centroid of its country within
     * this many kilometres (else `400`): postcodes lie a few km apart even in the countryside, so
     * a point in the country always has one, and a point in another country or the sea has none.
     * The valuation model values no point beyond it, so a point written is a point valued. */
    countryReachKm: 30,
    /** A stated postcode's centroid may lie at most this far from the stated coordinates (else
     * `400`): a centroid's nearest neighbour is at most 5–15 km away in 99% of each country's
     * postcodes (shipped divisions), so no postcode area reaches this far from its centre;
     * 1010 Wien and 8010 Graz are 145 km apart. */
    postcodeDistanceKm: 50,
    pageSize: 100,
    defaultPageSize: 20,
    /** A page of dossiers is read and sent in batches of at most this many bytes of stored
     * dossier (UTF-8; at least one dossier): a page of a hundred dossiers of 1 MiB is not held
     * whole. The batches of all pages being sent take turns, one per turn of the event loop
     * (`dossiers.ts`), so that other requests wait for one batch, not one per page in flight:
     * 256 KiB is parsed and written in a few milliseconds. */
    listBatchBytes: 256 * 1024,
    /** A merge patch is written only onto the body it merged onto; when another write came
     * first it is merged again, this many times in all, then refused (`409`). */
    patchAttempts: 5,
    /** Patches of one dossier take turns in a process: at most this many run or wait at once
     * (the next → `429`), and one waits at most `patchWaitMs` for those before it (→ `503`).
     * A patch takes a few milliseconds; a client sending hundreds at once to one dossier would
     * otherwise grow a queue without end. */
    patchesPending: 16,
    patchWaitMs: 10_000,
  },
  /** Property tracker: offers and building projects listed at most (all are counted), radius. */
  tracker: {
    maxItems: 500,
    defaultRadius: 200,
    maxRadius: 10_000,
  },
  /** Property valuation: property-date pairs per request. */
  valuation: {
    maxPairs: 50,
    /** A valuation date may lie this many years after today (valued at today's market: the
     * model does not forecast); clients value "a year from now" beside past dates. */
    futureYears: 5,
    /** Rent offers stating both net and gross rent needed to measure their ratio in an area. */
    rentRatioMinOffers: 30,
    /** Net share of a gross rent where the data cannot measure it: service charges and heating
     * are commonly about a fifth of a gross rent in the covered markets. */
    defaultNetRentRatio: 0.8,
    /** Dossier valuation timeline: months back from today, one valuation on each month's first. */
    timelineMonths: 24,
    /** Upper end of the default memory for the offers around valued places
     * (PROPDATA_VALUATION_CACHE_MB; src/valuation/place-tiles.ts): at 128 bytes per offer,
     * 512 MiB holds about 4.2 M offers (less the tiles' own 4 KB). */
    defaultCacheMaxMb: 512,
  },
  /** Points of interest: search radius in meters, and items per page. */
  pois: {
    /** Meters around the point when a request gives no radius: a walk of about 12 minutes. */
    defaultRadius: 1000,
    maxRadius: 10_000,
    maxLimit: 100,
    defaultLimit: 20,
    /** The furthest a page may start (`offset`): past any area's points of interest. */
    maxOffset: 100_000,
    /** Categories or subcategories a request may name, and the characters of each. */
    names: 50,
    nameChars: 50,
  },
  /** Places data around a point (location scores, report sections). */
  places: {
    /** Meters within which a place of a group (or a stop) must lie for the data to count as
     * covering the point: farther, scores say "no data". On the Vienna data every point of a
     * 1 km grid within 800 m of a stop has a pharmacy within 5.0 km, a school or kindergarten
     * within 4.3 km, leisure within 2.3 km and catering within 3.7 km. */
    coverageRadius: 5000,
    /** Nearest places a report lists per amenity group, and nearest stops. */
    reportPlacesPerGroup: 5,
    reportStops: 8,
  },
  /** Dossier sharing links: lifetime in days, and links an organization keeps. */
  dossierLinks: {
    maxDaysToLive: 365,
    defaultDaysToLive: 30,
    /** Open links (neither revoked nor expired) per dossier: revoked and expired ones stay
     * listed and do not count. */
    perDossier: 100,
    /** Closed links (revoked or expired) a dossier keeps listed: creating a link deletes the
     * older ones beyond these, so creating and revoking links in a loop does not grow the
     * store without end. */
    closedPerDossier: 100,
    /** Open links of one organization together (the next → `409`), and its links in all,
     * open and closed (creating one beyond deletes its oldest closed ones): the organization's
     * list counts and pages through its links on every request, on SQLite in the server's one
     * thread, so they stay bounded. With only the per-dossier bounds an organization could
     * hold two million (10,000 dossiers × 200), and one list took 0.1–0.9 s of the thread. */
    openPerOrganization: 20_000,
    perOrganization: 40_000,
    /** The list is paged: an organization may hold up to 100 open and 100 closed links on each
     * of its dossiers, within its own bounds. One dossier's open links fit in one page. */
    pageSize: 100,
    /** The furthest a page may start (`offset`). */
    maxOffset: 100_000_000,
    /** Random bytes of a link token: 256 bits, far past guessing. */
    tokenBytes: 32,
    /** The public page (no login). A view that must compute costs about 13 valuations, so
     * what a page shows is kept for `cacheMs` (per link, market snapshot, dossier content and
     * day: within that, repeated views compute nothing), and views are counted per link and
     * per client address in windows of `windowMs`; beyond either → an HTML `429` with
     * `Retry-After`. A link shown to a room of people stays well under the per-link count; one
     * client stays under its own unless it loops. Counted per process. */
    page: {
      windowMs: 60_000,
      viewsPerLink: 120,
      viewsPerAddress: 60,
      /** Links and addresses counted at once (the memory of the counters). */
      trackedKeys: 10_000,
      cacheMs: 5 * 60_000,
      /** Pages kept at once: each holds at most 300 offer points and a few KB more. */
      cachedPages: 500,
    },
  },
  /** Costly requests: a budget per organization with fair turns between organizations, so that
   * one organization's heavy requests cannot make another's wait (see the README, "Costly
   * requests"). */
  work: {
    /** A statistics request computed in memory is costly from this many offers × statistics ×
     * groups: about 2–3 ms of the server's thread. Cheaper ones run at once, as many as come:
     * their cost is of the order of answering any request, which the request limit bounds. At
     * 5,000,000, twelve requests of 4.5 M at once took another organization's one count from
     * 2 ms to 420 ms at the median; at 250,000 twelve of 232,000 took it to 54–85 ms. */
    statisticsCostly: 250_000,
    /** The same where DuckDB computes it (the division's offers are not held in memory), on its
     * own threads: 5,000,000 is about 10 ms of DuckDB time on two cores. */
    statisticsQueryCostly: 5_000_000,
    /** A valuation request is costly from this many property-date pairs (each one is 5–15 ms). */
    valuationPairsCostly: 10,
    /** Costly requests run at once, all organizations together: DuckDB already spreads one
     * query over every core, so more would only slow each down. */
    slots: 2,
    /** Costly requests of one organization running at once. */
    perOrganization: 1,
    /** Costly requests of one organization waiting for their turn; the next one is refused at
     * once with `429` and `Retry-After` (a client that sends more is not waiting for answers).
     * A dashboard's dozen statistics at once are costly from 250,000 units: they wait. */
    waitingPerOrganization: 32,
    /** A costly request that has not started within this is refused with `503` and
     * `Retry-After`: its client would have given up. */
    maxWaitMs: 20_000,
    /** The market queries of one statistics, valuation, tracker or places request are interrupted after this
     * (→ `503`): the heaviest request allowed takes about 1 s on a quiet machine. */
    queryDeadlineMs: 15_000,
    /** Retry-After of a request refused by the budget. */
    retryAfterSeconds: 2,
    /** Retry-After of a request whose worker (file check, render) stopped before it answered:
     * the next job gets a fresh one, which starts in about a second. */
    workerStoppedRetryAfterSeconds: 5,
  },
  /** At most this many validation errors are listed in one problem response. */
  problemErrors: 20,
  /** Cover uploads (multipart, as attachment uploads; every other route keeps the JSON body
   * limit above). */
  covers: {
    /** The PDF and the request body, as every upload (`uploadBytes`). */
    ...uploadBytes,
    /** Pages per cover PDF. */
    pages: 10,
    /** Covers per owner (a user, or an organization) and side (front, back); the next → 409. */
    perOwnerAndSide: 10,
    /** Longer file names are cut to this many characters for the title. */
    titleChars: 200,
    /** Compressed object and cross-reference streams are expanded while parsing; their expanded
     * size in one PDF may not exceed this, so a small "zip bomb" cannot take the memory. */
    pdfExpandedStreamBytes: 25 * 1024 * 1024,
    /** Objects of one PDF (cover or attachment), counted before it is parsed: parsing one costs
     * about 15 µs and a report's copy of it about 30 µs, so 10,000 objects cost a report under
     * half a second. Real documents have tens per page (a 36-page manual: 435). */
    pdfObjects: 10_000,
    /** Values in one PDF's arrays and dictionaries (each a parsed object of its own, counted
     * after parsing): a file of few objects can hold arrays of millions of numbers, each cheap
     * alone but together more than a report's heap holds (eight 4 MB files of 2 million each
     * ran the render worker out of memory). Real documents hold about a hundred per page (a
     * 36-page manual: 4,224; a one-page cover from a browser: 130). */
    pdfValues: 100_000,
    /** Levels of a PDF's page tree (real ones have two or three). */
    pdfTreeDepth: 32,
    /** A PDF page's size on a side (its /MediaBox) in the page's units: PDF's implementation
     * limits (ISO 32000-1, Annex C: 3 to 14,400 units, 0.04 to 200 inches at the default unit).
     * A page of zero size draws nothing and one of 10^30 points renders as a pixel. The largest
     * is also the service's bound in points, times the page's /UserUnit: a report has no use
     * for a page larger than 200 inches, however its unit is set. */
    pdfPageMinSide: 3,
    pdfPageMaxSide: 14_400,
    /** PDFs are parsed in a worker process with this much heap and time: a crafted file (millions
     * of tiny objects, a huge cross-reference table) costs the worker, never the server. A real
     * cover needs a few MB and milliseconds. */
    pdfWorkerHeapMb: 256,
    /** The inspection worker's stack: half the render worker's (`reports.workerStackMb`), so that
     * a PDF whose trial copy passes there has room to spare when a report copies it. */
    pdfWorkerStackMb: 2,
    pdfInspectionMs: 15_000,
    /** The inspection worker is replaced after a check that leaves it holding more than this
     * resident (checks of four 25 MiB PDFs left it at 160–220 MB). */
    pdfWorkerResidentMb: 256,
    /** Checking workers per server process: each inspects one file at a time, an organization
     * one at a time, so another organization's check never waits for its files (a large JPEG's
     * check with its print version takes 2–4 s, a hostile PDF up to the deadline); each has the
     * heap and resident bounds above. */
    pdfCheckWorkers: 2,
    /** The workers inspect one PDF at a time each, organizations taking turns. Inspections of one
     * organization waiting at once (more than the covers of a side, so that a client filling a
     * side at once is not refused): the next upload is refused with `429` and `Retry-After`. */
    pdfChecksWaitingPerOrganization: 16,
    /** An inspection not started within this is refused with `503` and `Retry-After`: with
     * organizations taking turns, each waits for at most one inspection (≤ 15 s) per other
     * organization with uploads under way beyond the other workers. */
    pdfCheckMaxWaitMs: 45_000,
  },
  /** Dossier attachments (floor plans, permits, photos…): PNG, JPEG or PDF. */
  attachments: {
    /** The file and the whole body (with `type` and `title`), as every upload (`uploadBytes`). */
    ...uploadBytes,
    /** Attachments per dossier: a report shows them all, so they stay a few; the next → 409. */
    perDossier: 20,
    /** Bytes of a dossier's attachments together (the next upload beyond → 409): a report
     * holds them all, with its two covers, in memory while it is put together, so this bounds
     * a report's memory (20 files of 25 MiB made a 572 MB report and 3.7 GB of memory). An image
     * counts as the larger of its file and its print version, which is what a report holds. */
    bytesPerDossier: 64 * 1024 * 1024,
    /** What a report's copies of a dossier's PDF attachments may cost together, in objects
     * copied (a PDF's copy weight: the objects of its pages as a report copies them, plus one
     * for every 1,000 values in them; src/pdf/pdf-structure.ts): the next PDF beyond → 409.
     * Copying costs the one render worker every organization shares about 75 µs an object:
     * twenty files at the per-file limits (`covers.pdfObjects`) had held it 15 s in every report
     * of their dossier. Real documents weigh tens a page (a 36-page manual holds 435 objects), so twenty
     * attachments of 50 such pages still fit. */
    copyWeightPerDossier: 30_000,
    /** Characters of a title (given, or the file name). */
    titleChars: 200,
    /** Pages of a PDF attachment: its pages are appended to reports. */
    pages: 50,
    /** Pixels of an image, read from its header before it is decoded: a small file can declare
     * a huge image (a decompression bomb). 40 MP is a 7,700 × 5,200 photo, 160 MB decoded. */
    maxPixels: 40_000_000,
    /** A 16-bit PNG's pixel counts as this many (its decoding took 4.5–5.2 s at 40 MP against
     * 1.3–1.6 s for 8 bits): it may have 10 MP. */
    sixteenBitPixelCost: 4,
    /** Pixels on one side: no real photo or scan is wider. */
    maxSide: 20_000,
    /** Memory the JPEG decoder may use while checking an image. It needs about 22 bytes a pixel
     * at 4:4:4 and 14.5 at 4:2:0 (about 9.5 MP and 14.4 MP): a JPEG that would need more is checked by its
     * structure instead (header, scans, end of image), as reports embed it without decoding. */
    decodeMemoryMb: 200,
    /** Chunks of a PNG, counted before it is decoded: each costs the decoder a few µs however
     * small (2 million one-byte image chunks held the checking worker 6 s); encoders write
     * chunks of 8–64 KB, a few thousand in the largest file. */
    pngChunks: 20_000,
    /** Scans of a (progressive) JPEG, counted before it is decoded: each scan costs the decoder
     * a pass over every block of the image however few bytes it has (9,000 scans of 40 bytes
     * held the checking worker for its whole 15 s). Encoders write 1 (baseline) to about 20. */
    jpegScans: 64,
    /** Pixels on the longer side of a PNG's or JPEG's print version (src/pdf/print-version.ts,
     * jpeg-print-version.ts), made at upload and shown by reports: a full A4 page's width at
     * 300 dpi is about 2,480. */
    printSide: 2400,
  },
  /** Stored files of one organization together: its dossiers' attachments (each with its print
   * version) and its own and its users' covers. The per-file and per-dossier caps alone let one
   * organization keep about 1.2 TiB (10,000 dossiers of 64 MiB, twice that with print
   * versions), and a member filling the disk took every organization's writes down with it.
   * Beyond the budget the next upload is `409` (overridable with
   * PROPDATA_STORAGE_PER_ORGANIZATION_MB; size the disk for the organizations it serves). */
  storage: {
    defaultMbPerOrganization: 10 * 1024,
  },
  /** Uploads (covers, attachments) of one organization under way at once, counted by the
   * length each declares (the most a body may have when it declares none): the next one beyond
   * is refused with `429` and `Retry-After` before its body is read. Each is held in memory while
   * it is read, checked and stored; four of the largest, or dozens of ordinary covers. */
  uploads: {
    bytesUnderWayPerOrganization: 4 * uploadBytes.requestBytes,
    /** A form part's name is quoted in an answer up to this many characters. */
    partNameChars: 100,
  },
  /** Downloads of stored files (covers, attachments). */
  downloads: {
    /** Stored files are kept in rows of this many bytes (src/accounts/stored-bytes.ts) and a
     * download reads one row at a time, the next only once the client has taken the one before:
     * a client that stops reading holds a few chunks of memory (until the send deadline), not the
     * whole file (up to 25 MiB); 30 stalled downloads hold well under 100 MB. Rows already stored
     * keep the size they were cut at. */
    chunkBytes: 1024 * 1024,
    /** Rows of stored files read at once in a process, organizations taking turns (one row each
     * at a time): another organization's request waits for at most these to be decoded. */
    rowReadsAtOnce: 2,
  },
  /** PDF reports. */
  reports: {
    /** Report answers sent but not yet taken by their clients, held in memory until the send
     * deadline cuts them: at most this much in the process (a new report then `503`), and this
     * much per organization (`429`), both with `Retry-After`. Thirty reports of 60 MiB that no
     * client read held 1.9 GB. */
    unsentBytes: 256 * 1024 * 1024,
    unsentBytesPerOrganization: 128 * 1024 * 1024,
    /** Offers, trends and building projects around the dossier: wider than the tracker's
     * default (200 m), so that a report has comparables to show in most places. */
    radius: 1000,
    /** The render worker's heap and each report's deadline: a report with every section, 500
     * offers and 20 attachments takes well under a second and tens of MB; the attachments (at
     * most 64 MiB a dossier, and two covers) travel as buffers outside this heap. */
    workerHeapMb: 512,
    /** The render worker's stack (what Node gives a worker thread): copying a PDF's objects
     * recurses as deep as they nest. Worker processes need an OS stack of at least this (Linux
     * gives a process's main thread 8 MB unless `ulimit -s` says less). */
    workerStackMb: 4,
    renderMs: 30_000,
    /** Retry-After of a report that ran past `renderMs`. */
    timedOutRetryAfterSeconds: 10,
    /** The render worker is replaced after a report that leaves it holding more than this
     * resident: a report of ordinary files leaves it at about 150 MB, one at the dossier's limits
     * at 550 MB, which it would otherwise keep while idle. */
    workerResidentMb: 320,
    /** Print versions of PNGs stored without one (uploaded before uploads made them), kept per
     * render worker by content, so a dossier's next reports skip the conversion. */
    printImageCacheBytes: 64 * 1024 * 1024,
  },
} as const;
