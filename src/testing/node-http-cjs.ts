import type * as Http from 'node:http';

/**
 * The CommonJS build's stand-in for node-http.ts (swapped in by tsup.config.ts): a literal `import()`,
 * which the build turns into a deferred `require` (a CommonJS loader may have no `import()`).
 */
export function loadHttp(): Promise<typeof Http> {
  return import('node:http');
}
