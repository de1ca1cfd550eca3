/*
 * What keeps a web page from driving the mock server's control endpoints. A page the developer
 * happens to open can send requests to 127.0.0.1 (CSRF), and a hostile DNS name that resolves to
 * 127.0.0.1 makes the mock look same-origin to that page (DNS rebinding). Either would let the page
 * reset the mock, queue faults, or subscribe any URL to its webhooks. So a control request must name
 * the mock itself in `Host`, come from no page or from the mock's own origin (or one the caller
 * trusts), and a POST must be `application/json`, which no page can send cross-origin without a
 * preflight, and preflights of control endpoints are refused.
 */

import { quote } from '../core/describe-value.js';
import { escapeUnsafe } from '../core/escape.js';

/** Headers of an incoming request, as Node's `IncomingMessage` has them. */
type IncomingHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * Why a control request is refused: the status and message to answer with (and the web page it came
 * from, when that is the reason), or `undefined` when it may go on.
 */
export function refuseControl(
  method: string,
  headers: IncomingHeaders,
  allowed: { port: number; hosts: ReadonlySet<string>; origins: ReadonlySet<string> },
  localAddress?: string,
): { status: number; message: string; page?: string } | undefined {
  const host = single(headers.host)?.toLowerCase() ?? '';
  // Bound to every interface (0.0.0.0, ::), the mock also serves the address a request came in on:
  // an IP literal, which a rebinding attacker's DNS name never is.
  const local =
    localAddress === undefined ? [] : [...hostValues([localAddress.replace(/^::ffff:/, '')], allowed.port)];
  if (!allowed.hosts.has(host) && !local.includes(host)) {
    return {
      status: 403,
      message: `The control endpoints answer only requests addressed to the mock itself (Host ${[...allowed.hosts][0]}), not ${quote(host)}`,
    };
  }
  const origin = single(headers.origin);
  const site = single(headers['sec-fetch-site']);
  const foreign =
    origin !== undefined
      ? !allowed.origins.has(origin.toLowerCase())
      : site === 'cross-site' || site === 'same-site';
  if (foreign && !allowed.origins.has('*')) {
    return {
      page: origin ?? `Sec-Fetch-Site: ${site}`,
      status: 403,
      message: `The control endpoints refuse requests from other origins (${quote((origin ?? site) as string)}); pass controlOrigins to trust one`,
    };
  }
  if (method === 'OPTIONS') return undefined;
  const type = single(headers['content-type'])?.split(';')[0]?.trim().toLowerCase();
  if (method === 'POST' && type !== 'application/json') {
    return {
      status: 415,
      message: `POST to a control endpoint needs content-type: application/json, got ${quote(type ?? '')}`,
    };
  }
  return undefined;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The `Host` values that name a server listening on `address:port`: loopback names, the address
 * itself and the name it was started with. Without the port when it is 80, as browsers send it.
 */
export function allowedHosts(address: string, port: number, hostOption: string): Set<string> {
  return hostValues(['127.0.0.1', 'localhost', '::1', address, hostOption], port);
}

function hostValues(names: readonly string[], port: number): Set<string> {
  const hosts = new Set<string>();
  for (const name of names) {
    const inUrl = name.includes(':') && !name.startsWith('[') ? `[${name}]` : name;
    hosts.add(`${inUrl}:${port}`.toLowerCase());
    if (port === 80) hosts.add(inUrl.toLowerCase());
  }
  return hosts;
}

/**
 * The line printed on standard error the first time a page's control request is refused: the page
 * itself sees only a CORS failure ("Failed to fetch"), which does not say what to change.
 */
export function refusedPageWarning(sent: string): string {
  // The page's Origin is what a request said, and goes to a terminal: escaped, as server text is.
  const page = escapeUnsafe(sent);
  const from = /^https?:\/\//.test(page)
    ? `the web page ${page} (the page sees a CORS error). To allow it: startMockServer({ controlOrigins: ['${page}'] }), or --control-origin ${page} on the command line.`
    : `a web page (${page === 'null' ? 'Origin: null' : page}; the page sees a CORS error).`;
  return `scholarly-metrics mock: refused a control request from ${from}\n`;
}

/** Whether `address` (as `server.address()` reports it) reaches only this machine. */
export function isLoopback(address: string): boolean {
  const ipv4 = address.toLowerCase().replace(/^::ffff:/, '');
  return ipv4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ipv4);
}

/**
 * The warning printed on standard error when the mock listens beyond loopback: it accepts well-known
 * keys and, with `control`, lets anyone who can reach it reset it or subscribe URLs to its webhooks.
 */
export function exposedWarning(address: string, port: number): string {
  return [
    '',
    '*** WARNING: scholarly-metrics mock server listening on a non-loopback address',
    `*** ${address}:${port} can be reached from other machines. The mock accepts well-known API keys`,
    '*** and, with control endpoints on, lets anyone who reaches it reset it, queue faults, or make it',
    '*** POST webhooks to any URL. Bind 127.0.0.1 (the default) unless this is what you want.',
    '',
    '',
  ].join('\n');
}
