// msw is an optional peer, and msw 3 ships ESM only. Loading it here, once, with a top-level await keeps
// `mockHandlers` synchronous, while importing `scholarly-metrics/testing` without msw still works: the
// failure is kept and reported only if `mockHandlers` is called. The CommonJS build, which has no
// top-level await, uses msw-module-cjs.ts instead (see tsup.config.ts).
import type * as Msw from 'msw';

const loaded: { msw: typeof Msw } | { failure: unknown } = await import('msw').then(
  (msw) => ({ msw }),
  (failure: unknown) => ({ failure }),
);

/** msw's module; throws why it could not be loaded. */
export function loadMsw(): typeof Msw {
  if ('msw' in loaded) return loaded.msw;
  throw loaded.failure;
}
