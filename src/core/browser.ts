/**
 * Whether this code runs in a browser: a page (there is a `document`) or a page's worker (no document,
 * but a browser's User-Agent; Deno, Bun, Node and workerd name themselves). The one browser test: a
 * browser's `fetch` sends its own User-Agent, follows redirects itself, and an API key in a page or
 * its worker's script is anyone's to read.
 */
export function inBrowser(): boolean {
  const g = globalThis as { document?: unknown; navigator?: { userAgent?: string } };
  // test() reads a missing User-Agent as "undefined".
  return g.document !== undefined || /^Mozilla/.test(g.navigator?.userAgent as string);
}
