/** What the benchmarks measure, by name: shared by each bench file and the report, free of side effects. */

export const command = 'npm run bench';

/** 1. Per-request overhead. */
export const requestNames = {
  fetch: 'fetch + JSON.parse',
  ky: 'ky (defaults)',
  kyFloor: 'ky (retry, timeout, HTTP errors off)',
  openapi: 'openapi-fetch',
  sdk: 'scholarly-metrics',
} as const;

/** 2. Validation. */
export const validationNames = {
  parse: 'JSON.parse alone',
  sdk: 'scholarly-metrics (JSON.parse + generated parser)',
  mini: 'JSON.parse + zod/mini safeParse',
  classic: 'JSON.parse + zod (classic) safeParse',
} as const;

/** 3. Paging. */
export const paging = { pages: 100, perPage: 20, latencyMs: 20, prefetches: [0, 1, 2, 4, 8] } as const;
export const loopName = 'sequential loop (fetch + JSON.parse)';
export const walkName = (prefetch: number) => `scholarly-metrics for await, prefetch ${prefetch}`;

/** 4. Memory. */
export const memory = { items: 1_000_000, perPage: 100 } as const;

/** 5. Cold start. */
export const coldStartNames = {
  sdk: 'scholarly-metrics (ESM)',
  sdkCjs: 'scholarly-metrics (CommonJS)',
  kyMini: 'ky + zod/mini',
  kyZod: 'ky + zod',
  nothing: 'an empty script',
} as const;
