/**
 * A webhook receiver as a Fetch handler, `(request: Request) => Promise<Response>`: the shape of
 * Deno.serve, Bun.serve, Cloudflare Workers and Next.js route handlers.
 *
 *   npx node examples/webhook-receiver-fetch.ts      (after `npm run build`)
 */
import { createMockApi } from 'scholarly-metrics/testing';
import { createWebhookHandler } from 'scholarly-metrics/webhooks';

const handleWebhook = createWebhookHandler(async (event) => {
  console.log(
    `score_updated: journal ${event.journal_id} ${event.old_score} → ${event.new_score} at ${event.timestamp}`,
  );
});

// Deploy it as is:
//   Deno.serve(handleWebhook);
//   Bun.serve({ fetch: handleWebhook });
//   export default { fetch: handleWebhook };         // Cloudflare Workers
//   export const POST = handleWebhook;               // Next.js app/api/…/route.ts

// Here the mock delivers to it in-process: its webhook `fetch` calls the handler, no socket needed.
// The same wiring tests a receiver in your own suite.
const api = createMockApi({
  webhooks: {
    urls: ['https://my-app.example/hooks/scores'],
    fetch: (input, init) => handleWebhook(new Request(input, init)),
  },
});
const { deliveries } = await api.updateScore(7, 64);
console.log(`delivered: ${deliveries[0]!.status}`);

// What a wrong body gets: 400, and the callback is never called.
const bad = await handleWebhook(
  new Request('https://my-app.example/hooks/scores', { method: 'POST', body: '{"event":"score_updated"}' }),
);
console.log(`a body without the fields: ${bad.status} ${await bad.text()}`);
