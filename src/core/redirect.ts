import { inBrowserPage } from './browser.js';
import { MetricError } from './errors.js';
import { redactText } from './redact.js';

/** As many as `fetch` itself follows before giving up. */
const maxRedirects = 20;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * Whether this runtime's `fetch` hides a redirect it was told not to follow. A browser (page or
 * worker) answers `redirect: 'manual'` with an opaque response, no status, no `Location`, so there
 * the browser follows redirects itself, under its own rules (see docs/runtimes.md).
 */
function hidesRedirects(): boolean {
  return inBrowserPage() || (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== undefined;
}

/**
 * `fetch` that follows redirects within the request's origin only. `fetch` itself drops
 * `Authorization` on a redirect to another origin but keeps every other header, so a key a hook or
 * the user put in `x-api-key` would reach whatever host the server names. Here every redirect is
 * taken in hand (`redirect: 'manual'`, where the runtime shows it: Node, Deno, Bun, workerd): one to
 * the same origin is followed with the same headers, under the same signal (the attempt's deadline
 * covers them all); one to another origin is refused with a `MetricError`, never sent.
 */
export function fetchFollowingSameOrigin(
  fetch: typeof globalThis.fetch,
  secret: string | null,
): typeof globalThis.fetch {
  if (hidesRedirects()) return fetch;
  return async (input, init) => {
    let request = input instanceof Request ? input : new Request(input, init);
    let response = await fetch(request, { ...init, redirect: 'manual' });
    for (let followed = 0; redirectStatuses.has(response.status); followed++) {
      const location = response.headers.get('location');
      // Without a Location there is nowhere to go: the 3xx is the answer, and fails as one.
      if (location === null) return response;
      response.body?.cancel().catch(() => {});
      const from = new URL(request.url);
      const to = new URL(location, from);
      if (to.origin !== from.origin) {
        throw new MetricError(
          redactText(
            `Refused a ${response.status} redirect from ${from.origin} to another origin, ${to.origin}: ` +
              'headers set for the API are never sent elsewhere (set baseUrl to the new address)',
            secret,
          ),
        );
      }
      if (followed === maxRedirects) {
        throw new MetricError(`Gave up after ${maxRedirects} redirects within ${from.origin}`);
      }
      request = new Request(to.href, { method: request.method, headers: request.headers });
      response = await fetch(request, { ...init, redirect: 'manual' });
    }
    return response;
  };
}
