/**
 * The hint for a request that got no answer, behind a proxy or not. Node's fetch reads the proxy
 * variables only with `NODE_USE_ENV_PROXY=1`; a proxy's refusal shows in the error's message as
 * Node's tunnel and undici's `ProxyAgent` word it. A proxy is shown by its origin, never its user
 * or password.
 */
import { terminalSafe } from './output/escape.js';

/**
 * The hint for a request that got no answer from the API: the proxy's refusal when one refused
 * (Node's tunnel and undici's `ProxyAgent` say its status), the proxy the requests went through, a
 * proxy variable Node ignores, else the base URL (most often a typo, or a server that is not running).
 */
export function connectionHint(error: Error, baseUrl: string | undefined, env: ProxyEnv): string | undefined {
  // No base URL: the built-in mock, which sends nothing over the network.
  if (baseUrl === undefined) return undefined;
  const proxy = proxyFor(baseUrl, env);
  // The URL as typed, which may hold what a terminal acts on (an escape sequence): shown escaped.
  const shownUrl = terminalSafe(baseUrl);
  const named = proxy === undefined ? 'the proxy' : `the proxy ${proxy.origin} (${proxy.variable})`;
  // The wording the SDK's retry reads too (src/core/retry.ts): a 4xx refusal is tried once.
  const refusal = /Proxy response \((\d{3})\)|Proxy Authentication Required \((407)\)/.exec(error.message);
  const status = refusal?.[1] ?? refusal?.[2];
  if (status === '407') {
    return proxy?.credentials
      ? `${named} refused its user and password (407): check them in ${proxy.variable}`
      : `${named} asks for a user and password (407): set ${proxy?.variable ?? 'HTTPS_PROXY'}=http://user:password@host:port`;
  }
  // A gateway's status: the proxy could not reach the API (a server down, a base URL mistyped).
  if (status === '502' || status === '503' || status === '504') {
    return `${named} could not reach ${hostAndPort(baseUrl)} (${status}): check --base-url or METRIC_BASE_URL (now: ${shownUrl}), and that the server runs`;
  }
  if (status !== undefined) {
    return `${named} refused the tunnel to ${hostAndPort(baseUrl)} (${status}): ask its administrator to allow it, or list the host in NO_PROXY if it is reachable directly`;
  }
  if (proxy !== undefined && envProxyOn(env) && !bypassed(baseUrl, env))
    return `check ${named}, and --base-url or METRIC_BASE_URL (now: ${shownUrl})`;
  // Set for curl and the like, but Node's fetch goes direct: where only the proxy reaches out, nothing does.
  if (proxy !== undefined && !envProxyOn(env) && !isLoopback(baseUrl)) {
    return `Node ignores ${proxy.variable} unless started with NODE_USE_ENV_PROXY=1 (Node 22.21 or later): run NODE_USE_ENV_PROXY=1 scholarly-metrics …`;
  }
  return `check --base-url or METRIC_BASE_URL (now: ${shownUrl})`;
}

/** The variables Node reads its proxy from with `NODE_USE_ENV_PROXY=1`. */
export type ProxyEnv = Readonly<Record<string, string | undefined>>;

/**
 * The proxy variable for `url`'s scheme, the lower-case name first as Node reads them: its name and
 * the proxy's origin, which leaves out the user and password (never shown).
 */
function proxyFor(
  url: string,
  env: ProxyEnv,
): { variable: string; origin: string; credentials: boolean } | undefined {
  const scheme = parsed(url)?.protocol === 'http:' ? 'http' : 'https';
  for (const variable of [`${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`]) {
    const value = env[variable];
    if (!value) continue;
    const proxy = parsed(value);
    if (proxy === undefined) return undefined;
    return {
      variable,
      origin: terminalSafe(`${proxy.protocol}//${proxy.host}`),
      credentials: proxy.username !== '',
    };
  }
  return undefined;
}

/** Whether Node's fetch reads the proxy variables: `NODE_USE_ENV_PROXY=1` or `--use-env-proxy`. */
export function envProxyOn(env: ProxyEnv): boolean {
  return env.NODE_USE_ENV_PROXY === '1' || process.execArgv.includes('--use-env-proxy');
}

/**
 * Whether NO_PROXY sends `url` direct, matched as undici matches it: `*`, a host in any case, a
 * `.suffix` (or `*.suffix`) that matches the domain itself too, a port.
 */
function bypassed(url: string, env: ProxyEnv): boolean {
  const target = parsed(url);
  if (target === undefined) return false;
  const port = target.port || (target.protocol === 'http:' ? '80' : '443');
  const entries = (env.no_proxy ?? env.NO_PROXY ?? '')
    .toLowerCase()
    .split(/[,\s]+/)
    .filter(Boolean);
  return entries.some((entry) => {
    if (entry === '*') return true;
    const [host = '', entryPort] = entry.split(/:(?=\d+$)/);
    if (entryPort !== undefined && entryPort !== port) return false;
    const domain = host.replace(/^\*?\./, '');
    return target.hostname === domain || (domain !== host && target.hostname.endsWith(`.${domain}`));
  });
}

function isLoopback(url: string): boolean {
  const host = parsed(url)?.hostname;
  return host === 'localhost' || host === '[::1]' || host?.startsWith('127.') === true;
}

function hostAndPort(url: string): string {
  const target = parsed(url);
  if (target === undefined) return 'the API';
  return terminalSafe(`${target.hostname}:${target.port || (target.protocol === 'http:' ? '80' : '443')}`);
}

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
