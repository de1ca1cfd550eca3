// The CommonJS build's stand-in for msw-module.ts (swapped in by tsup.config.ts): msw is required on
// first use only. msw 3 ships ESM only, so this needs a Node with require(esm) (22.12 and later).
import type * as Msw from 'msw';

/** msw's module; throws why it could not be loaded. */
export function loadMsw(): typeof Msw {
  // `module.require`, not `require`: esbuild leaves it as written, where a bare `require` in a
  // platform-neutral build becomes a shim in a chunk that every CommonJS entry would then load.
  return module.require('msw') as typeof Msw;
}
