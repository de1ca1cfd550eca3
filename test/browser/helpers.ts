// Browser side. Only types come from `scholarly-metrics/testing`: the mock itself runs in Node
// (global-setup.ts), and the page talks to it over HTTP like any web app would.
import { type ClientOptions, MetricClient } from 'scholarly-metrics';
import type { MockFault } from 'scholarly-metrics/testing';
import { inject } from 'vitest';

/** A client of the plain mock, key allowed in the browser on purpose (it is the mock's key). */
export function client(options: ClientOptions = {}) {
  return new MetricClient({
    apiKey: inject('apiKey'),
    baseUrl: inject('mockUrl'),
    dangerouslyAllowBrowser: true,
    ...options,
  });
}

/** A client of the controlled mock (faults, score updates). */
export const controlledClient = (options: ClientOptions = {}) =>
  client({ baseUrl: inject('controlUrl'), ...options });

/** Calls a control endpoint of the controlled mock, cross-origin like the API calls. */
export async function control(path: string, body?: unknown, method = 'POST'): Promise<unknown> {
  const origin = new URL(inject('controlUrl')).origin;
  const response = await fetch(`${origin}/__mock/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`control ${method} /__mock/${path}: ${response.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

/** Queues a fault on the controlled mock for its next request(s). */
export const fault = (f: MockFault) => control('faults', f);
