// CORS lets a page on any origin call the mock (a browser test, the browser example). The API key
// travels in `Authorization`, not in cookies, so `*` is safe here and credentials are not allowed.

// X-Request-Id too: a page reporting an error needs the id that names it.
const exposed = 'Retry-After, WWW-Authenticate, Allow, X-Request-Id';

/** Adds the CORS headers every answer carries. `Response.error()` has no headers and is returned as is. */
export function applyCors(response: Response): Response {
  if (response.type === 'error') return response;
  response.headers.set('access-control-allow-origin', '*');
  response.headers.set('access-control-expose-headers', exposed);
  return response;
}

/**
 * Answers a preflight with 204, allowing whatever headers the page asks for: `*` would not cover
 * `Authorization`, and the SDK may add headers of its own. Preflights need no key (browsers never
 * send one there) and are neither counted nor faulted.
 */
export function preflight(request: Request, control: boolean): Response {
  const requested = request.headers.get('access-control-request-headers');
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': control ? 'GET, HEAD, OPTIONS, POST, DELETE' : 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': requested ?? 'Authorization, Content-Type, Accept',
      'access-control-expose-headers': exposed,
      'access-control-max-age': '600',
      vary: 'Access-Control-Request-Headers',
    },
  });
}
