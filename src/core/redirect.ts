import { inBrowser } from './browser.js';
import { MetricError } from './errors.js';
import { redactText } from './redact.js';

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * `fetch` that follows redirects within the request's origin only. `fetch` itself drops
 * `Authorization` on a redirect to another origin but keeps every other header, so a key a hook or
 * the user put in `x-api-key` would reach whatever host the server names. Here every redirect is
 * taken in hand (`redirect: 'manual'`, where the runtime shows it: Node, Deno, Bun, workerd): one to
 * the same origin is followed with the same headers, under the same signal (the attempt's deadline
 * covers them all); one to another origin is refused with a `MetricError`, never sent. The following
 * is a module of its own, loaded with the first redirect: most clients never get one.
 */
export function fetchFollowingSameOrigin(
  fetch: typeof globalThis.fetch,
  secret: string | null,
): typeof globalThis.fetch {
  // A browser's `fetch` answers `redirect: 'manual'` with an opaque response (see below): the browser
  // follows redirects itself, under its own rules (see docs/runtimes.md).
  if (inBrowser()) return fetch;
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const response = await fetch(request, { ...init, redirect: 'manual' });
    // So would a browser-like runtime not recognised as one, with no status or Location to check: the
    // request goes again, for it to follow. workerd shows the redirect, and it is taken in hand here.
    if (response.type === 'opaqueredirect') return fetch(request, init);
    if (!redirectStatuses.has(response.status)) return response;
    const { followSameOrigin } = await import('./follow-redirects.js');
    const send = (next: Request) => fetch(next, { ...init, redirect: 'manual' });
    return followSameOrigin(send, request, response, { secret, redirectStatuses, MetricError, redactText });
  };
}
