// Bun smoke test (scripts/test-bun.mjs runs it with Bun from the npm registry): the built package,
// imported by its name as a Bun user would (ESM and CommonJS), against the mock API over HTTP.
// METRIC_BASE_URL and METRIC_API_KEY point at a mock server started by the Node parent.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { MetricClient, NotFoundError } from 'scholarly-metrics';
import { parseWebhookEvent } from 'scholarly-metrics/webhooks';
import { checkEncodedWebhooks } from '../runtimes/encoded-webhooks.js';

const bun = (globalThis as { Bun?: { version: string } }).Bun;
assert.ok(bun, 'this smoke test must run on Bun');

// Options from the environment, as documented.
const client = new MetricClient();

const journals = await client.journals.list();
assert.ok(journals.length > 0);
const first = journals[0]!;
const profile = await client.journals.get(first.id);
assert.equal(profile.id, first.id);

let walked = 0;
for await (const paper of client.journals.papers(first.id, { per_page: 2 })) {
  assert.equal(typeof paper.title, 'string');
  if (++walked === 5) break;
}
assert.equal(walked, Math.min(5, (await client.journals.papers(first.id)).total));

await assert.rejects(client.journals.get(999_999_999), NotFoundError);

const event = parseWebhookEvent(
  '{"event":"score_updated","journal_id":1,"old_score":1,"new_score":2,"quartile":"Q1","timestamp":"2024-05-01T12:00:00Z"}',
);
assert.equal(event.new_score, 2);
const encodedWebhooks = await checkEncodedWebhooks();

// The CommonJS build too.
const require = createRequire(import.meta.url);
const cjs = require('scholarly-metrics') as typeof import('scholarly-metrics');
const viaRequire = await new cjs.MetricClient().subjects.list();
assert.ok(viaRequire.length > 0);

console.log(
  `Bun ${bun.version}: ESM and CJS builds OK (${journals.length} journals, walked ${walked} papers); ${encodedWebhooks}`,
);
