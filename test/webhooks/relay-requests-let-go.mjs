/**
 * Streams whose requests the server let go of, run by relay-lifetime.test.ts in a child process with
 * --expose-gc: 2,000 streams are opened with requests kept by nobody but the relay (as a Node adapter
 * does once it has handed the request over), their bodies kept; after collections, the adapters'
 * controllers abort half of them. It prints one JSON line: the relay's clients before and after.
 */
import { createEventRelay } from '../../src/webhooks/index.ts';

if (typeof globalThis.gc !== 'function') {
  console.error('run with --expose-gc');
  process.exit(2);
}

const relay = createEventRelay({ maxClients: 10_000, heartbeatMs: 3_600_000 });
const controllers = [];
const bodies = [];
for (let n = 0; n < 2_000; n++) {
  const controller = new AbortController();
  controllers.push(controller);
  const response = await relay.handler(new Request('http://127.0.0.1/events', { signal: controller.signal }));
  bodies.push(response.body);
}
const before = relay.clients;
for (let turn = 0; turn < 10; turn++) {
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 10));
}
for (const controller of controllers.slice(0, 1_000)) controller.abort();
// Polled until the aborted streams are gone, or 20 s: the report says how many are left either way.
const deadline = performance.now() + 20_000;
while (relay.clients > before - 1_000 && performance.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 10));
}
console.log(JSON.stringify({ before, after: relay.clients, bodies: bodies.length }));
relay.close();
