// A CommonJS file (this folder's package.json says so): its imports compile to require(), so the
// package's require condition and index.d.cts are what is checked, with ky (ESM only) out of reach.
import { type ClientHooks, MetricClient } from 'scholarly-metrics';
import { createMockApi } from 'scholarly-metrics/testing';
import { parseWebhookEvent } from 'scholarly-metrics/webhooks';

import MetricClientDefault = require('scholarly-metrics');

const hooks: ClientHooks = { beforeRequest: [({ request }) => request.headers.set('x-a', 'b')] };
export const client = new MetricClient({ apiKey: 'k', baseUrl: 'https://x.example/api/v1', hooks });
export const same: typeof MetricClient = MetricClientDefault.MetricClient;
export const viaDefault: typeof MetricClient = MetricClientDefault.default;
export const event = parseWebhookEvent('{}');
export const api = createMockApi();
