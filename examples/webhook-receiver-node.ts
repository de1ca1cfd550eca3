/**
 * A webhook receiver on Node's http module (Express takes the same handler as middleware).
 * The mock plays the service: it changes scores and POSTs `score_updated` to the receiver.
 *
 *   npx node examples/webhook-receiver-node.ts      (after `npm run build`; starts its own mock)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mockControl, startMockServer } from 'scholarly-metrics/testing';
import { createNodeWebhookHandler } from 'scholarly-metrics/webhooks';

// Your receiver. Invalid bodies get 400 and never reach your callback; a throw in it gives 500.
const handler = createNodeWebhookHandler(async (event) => {
  const trend = event.new_score > event.old_score ? 'up' : 'down';
  console.log(
    `journal ${event.journal_id} went ${trend}: ${event.old_score} → ${event.new_score} (${event.quartile})`,
  );
});
const receiver = createServer(handler);
await new Promise<void>((resolve) => receiver.listen(Number(process.env.PORT ?? 0), '127.0.0.1', resolve));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/scores`;
console.log(`receiver listening at ${hookUrl}`);

// The service side, played by the mock. In production you set the URL in the dashboard instead.
const ownMock = process.env.METRIC_BASE_URL ? undefined : await startMockServer({ control: true });
const control = mockControl(ownMock?.url ?? process.env.METRIC_BASE_URL!);
try {
  await control.subscribe(hookUrl);
  for (const [journalId, score] of [
    [3, 88],
    [4, 12],
  ] as const) {
    const { deliveries } = await control.updateScore(journalId, score);
    console.log(`  delivery → ${deliveries.map((d) => d.status ?? d.error).join(', ')}`);
  }
  await control.unsubscribe(hookUrl);
} finally {
  await control.reset();
  await ownMock?.close();
  receiver.closeAllConnections();
  receiver.close();
}
