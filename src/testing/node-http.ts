import type * as Http from 'node:http';

/**
 * node:http, loaded by `startMockServer` only, by a name no bundler follows: a browser build of the
 * testing entry (msw's setupWorker) has nothing to resolve (esbuild refuses `node:` modules there).
 * The CommonJS build takes node-http-cjs.ts instead (tsup.config.ts), as a CommonJS loader may have
 * no `import()`.
 */
export function loadHttp(): Promise<typeof Http> {
  const name = 'node:http';
  return import(/* webpackIgnore: true */ /* @vite-ignore */ name);
}
