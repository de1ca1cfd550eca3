/**
 * Whether this code runs in a browser page: there is a `document`. The one browser test: a page's
 * `fetch` sends its own User-Agent and an API key in a page is anyone's to read. A browser's worker
 * has no document; where a worker matters as well (redirects), the caller says so.
 */
export function inBrowserPage(): boolean {
  return (globalThis as { document?: unknown }).document !== undefined;
}
