import { inBrowser } from './browser.js';
import { VERSION } from './version.js';

/** The version, also where the User-Agent is built (tests read it here). */
export { VERSION };

interface RuntimeGlobals {
  Deno?: { version?: { deno?: string } };
  Bun?: { version?: string };
  process?: { versions?: { node?: string } };
  navigator?: { userAgent?: string };
}

/**
 * `scholarly-metrics/<version> (<runtime>/<version>)`, or `undefined` in a browser, whose fetch
 * sends its own User-Agent (and some refuse a page's).
 */
export function userAgent(): string | undefined {
  const runtime = runtimeName(globalThis as RuntimeGlobals);
  return runtime === undefined ? undefined : `scholarly-metrics/${VERSION} (${runtime})`;
}

function runtimeName(g: RuntimeGlobals): string | undefined {
  try {
    if (g.Deno?.version?.deno) return `deno/${g.Deno.version.deno}`;
    if (g.Bun?.version) return `bun/${g.Bun.version}`;
    if (g.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd';
    if (inBrowser()) return undefined;
    if (g.process?.versions?.node) return `node/${g.process.versions.node}`;
    return 'unknown';
  } catch {
    // A runtime that guards its globals behind permissions still gets the package's name.
    return 'unknown';
  }
}

/**
 * Extends the User-Agent `headers` carry, one the user chose, with the SDK's: `myapp/1.0
 * scholarly-metrics/0.4.0 (…)`. Where they carry none, the SDK's goes alone if `alone` says so: a
 * call's headers without one leave the client's in place.
 */
export function extendUserAgent(headers: Headers, alone: boolean): void {
  const own = headers.get('user-agent');
  if (!own && !alone) return;
  const sdk = userAgent();
  const agent = own && sdk ? `${own} ${sdk}` : own || sdk;
  if (agent) headers.set('user-agent', agent);
}
