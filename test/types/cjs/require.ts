// A CommonJS file (this folder's package.json says so): its imports compile to require(), so the
// package's require condition and index.d.cts are what is checked, with ky (ESM only) out of reach.
import { type ClientHooks, MetricClient } from 'scholarly-metrics';
import { createRedisQuota } from 'scholarly-metrics/redis';
import { createMockApi } from 'scholarly-metrics/testing';
import { parseWebhookEvent } from 'scholarly-metrics/webhooks';

import MetricClientDefault = require('scholarly-metrics');
import redisEntry = require('scholarly-metrics/redis');
import ioredis = require('ioredis');

const hooks: ClientHooks = { beforeRequest: [({ request }) => request.headers.set('x-a', 'b')] };
export const client = new MetricClient({ apiKey: 'k', baseUrl: 'https://x.example/api/v1', hooks });
export const same: typeof MetricClient = MetricClientDefault.MetricClient;
export const viaDefault: typeof MetricClient = MetricClientDefault.default;
export const event = parseWebhookEvent('{}');
export const api = createMockApi();
// The redis entry through require(): redis.d.cts, with ioredis's CommonJS types.
export const quota = createRedisQuota({ redis: new ioredis.Redis(), maxConcurrency: 4 });
export const required: typeof createRedisQuota = redisEntry.createRedisQuota;
export const shared = new MetricClient({ apiKey: 'k', baseUrl: 'https://x.example/api/v1', quota });
