import type { MetricError } from './errors.js';
import type { redactText } from './redact.js';

/** As many as `fetch` itself follows before giving up. */
const maxRedirects = 20;

/**
 * What following takes from the first load, handed over by the loader (redirect.ts) rather than
 * imported: this module is loaded on demand, and importing the first load's modules would make a
 * splitting bundler cut them out of the first load into chunks of their own.
 */
export interface FollowParts {
  readonly secret: string | null;
  readonly redirectStatuses: ReadonlySet<number>;
  readonly MetricError: typeof MetricError;
  readonly redactText: typeof redactText;
}

/**
 * Follows `response`, a redirect answering `request`, and the redirects after it, within the
 * request's origin: with the same headers, through `send` (the same signal and options). A redirect
 * to another origin, or past {@link maxRedirects}, is refused with a `MetricError`, never sent.
 */
export async function followSameOrigin(
  send: (request: Request) => Promise<Response>,
  request: Request,
  response: Response,
  parts: FollowParts,
): Promise<Response> {
  const { secret, redirectStatuses, MetricError, redactText } = parts;
  for (let followed = 0; redirectStatuses.has(response.status); followed++) {
    const location = response.headers.get('location');
    const to =
      location !== null && URL.canParse(location, request.url) ? new URL(location, request.url) : undefined;
    // Without a Location that is a URL there is nowhere to go, nor to one with credentials, which a
    // request cannot carry: the 3xx is the answer, and fails as one.
    if (to === undefined || to.username || to.password) return response;
    response.body?.cancel().catch(() => {});
    const from = new URL(request.url);
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
    response = await send(request);
  }
  return response;
}
