/**
 * The SDK's bounds that the command line checks its options against before anything is sent, and
 * its reading of `Retry-After`, which the progress line's countdown must agree with, from the
 * modules that declare them. Through the package's entry, the bin's first module would load the
 * whole client at every start-up, `--version` included: esbuild loads with a chunk every module it
 * reaches that another chunk uses. test/cli/entry-isolation.test.ts allows this file alone to import
 * them.
 */
export { maxPrefetch } from '../core/options/request.js';
export { maxRetryAfterSeconds, parseRetryAfter } from '../core/retry.js';
export { maxConcurrency as maxGetManyConcurrency } from '../resources/get-many.js';
