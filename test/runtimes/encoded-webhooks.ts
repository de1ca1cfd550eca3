// A webhook body sent gzip- or deflate-encoded, through the Fetch receiver: decoded by the runtime's
// own DecompressionStream (Deno, workerd and Bun each have theirs). Web-standard APIs only.
import { createWebhookHandler } from 'scholarly-metrics/webhooks';

/** A `score_updated` body as the service sends it: the smoke tests' one event. */
export const scoreUpdatedBody =
  '{"event":"score_updated","journal_id":7,"old_score":61,"new_score":64,"quartile":"Q1","timestamp":"2024-05-01T12:00:00Z"}';

async function encoded(text: string, format: 'gzip' | 'deflate'): Promise<ArrayBuffer> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream(format));
  return new Response(stream).arrayBuffer();
}

function delivery(encoding: string, payload: BodyInit): Request {
  return new Request('http://localhost/webhooks', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    body: payload,
  });
}

/**
 * Posts the event gzip- and deflate-encoded, and bytes that claim gzip but are not: the first two
 * reach the callback, the last is a 400 naming the encoding. Rejects on the first difference.
 */
export async function checkEncodedWebhooks(): Promise<string> {
  const received: number[] = [];
  const handle = createWebhookHandler((event) => {
    if (event.event === 'score_updated') received.push(event.new_score);
  });
  for (const format of ['gzip', 'deflate'] as const) {
    const response = await handle(delivery(format, await encoded(scoreUpdatedBody, format)));
    if (response.status !== 200)
      throw new Error(`a ${format} body got ${response.status}: ${await response.text()}`);
  }
  if (received.join() !== '64,64')
    throw new Error(`the callback got ${JSON.stringify(received)}, not 64 twice`);
  const corrupt = await handle(delivery('gzip', new TextEncoder().encode(scoreUpdatedBody)));
  const refusal = await corrupt.text();
  if (corrupt.status !== 400 || !refusal.includes('decoded from gzip')) {
    throw new Error(`a body that is not gzip got ${corrupt.status}: ${refusal}`);
  }
  return 'webhooks: gzip and deflate bodies decoded by the Fetch receiver, a false gzip refused (400)';
}
