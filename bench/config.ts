/** What the benchmarks measure, by name: shared by each bench file and the report, free of side effects. */

export const command = 'npm run bench';

/** 1. Per request: the same `GET /journals/{id}` on loopback, then with the server holding each answer. */
export const requestNames = {
  fetch: 'fetch + JSON.parse',
  ky: 'ky by hand (.text() + JSON.parse)',
  openapi: 'openapi-fetch',
  sdk: 'scholarly-metrics',
  sdkQueued: 'scholarly-metrics, maxConcurrency 1,000,000',
} as const;
export const requestLatencyMs = 5;

/** 2. The quota when no limit is set: `Quota.run(fn)` against `fn()`. */
export const quotaNames = {
  bare: 'fn()',
  unset: 'new Quota().run(fn)',
  queued: 'new Quota({ maxConcurrency: 1_000_000 }).run(fn)',
} as const;

/** 3. Validation. */
export const validationNames = {
  parse: 'JSON.parse alone',
  fast: 'JSON.parse + shape.safeParse (generated parser via withParser)',
  sdk: 'parseResponse (the SDK’s whole path)',
  runtime: 'JSON.parse + zod/mini safeParse (runtime, no fast path)',
} as const;

/** 3b. The body read: `response.text()` (0.2) against the bounded read (`maxResponseBytes`). */
export const bodyReadNames = {
  text: 'fetch + response.text() raced against the Deadline (0.2, unbounded)',
  bounded: 'fetch + readBody within maxResponseBytes (0.3, bounded)',
} as const;

/** 7. Paging. */
export const paging = { pages: 100, perPage: 20, latencyMs: 20, prefetches: [0, 1, 2, 4, 8] } as const;
export const loopName = 'sequential loop (fetch + JSON.parse)';
export const walkName = (prefetch: number) => `scholarly-metrics for await, prefetch ${prefetch}`;
/** `toArray({ limit })` against `for await` + `break`, counted at the server. */
export const toArrayConfig = {
  papers: 3000,
  perPage: 100,
  latencyMs: 20,
  limits: [1, 150, 1000],
  prefetches: [1, 8],
} as const;

/** 4. Memory. */
export const memory = { items: 1_000_000, perPage: 100, rounds: 3 } as const;
/** Section 9: the command line's walk to a file, against the SDK's own walk; and a table's rendering. */
export const cli = {
  items: 100_000,
  perPage: 100,
  prefetch: 1,
  rounds: 15,
  fields: 'id,doi,title,citations',
  tableRows: 1000,
  tableRenders: 30,
} as const;

/** 6. Cold start. */
export const coldStartNames = {
  sdk: 'scholarly-metrics (ESM)',
  sdkCjs: 'scholarly-metrics (CommonJS)',
  stack: 'ky + p-retry + zod/mini + zod/v4/core (what the package imports)',
  kyMini: 'ky + zod/mini',
  kyZod: 'ky + zod',
  nothing: 'an empty script',
} as const;

/** The targets BENCHMARKS.md judges the figures against. */
export const targets = {
  overKy: 1.1,
  overKyHoped: 1.05,
  overOpenapi: 1.3,
  quotaShare: 0.02,
  validation: 1.3,
  bodyRead: 1.02,
  peakOverKy: 1.1,
  retainedMB: 5,
  clientKB: 36,
  /** The client's first load by issue 22's measure (scripts/first-load.mjs). */
  firstLoadKB: 26,
  webhooksKB: 6,
  paging: 3.5,
  cliSpeed: 0.9,
  cliRss: 1.2,
  cliProgress: 0.02,
  cliTableMs: 50,
};
