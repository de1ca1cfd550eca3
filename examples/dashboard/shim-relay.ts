// THROWAWAY: stands in for `createEventRelay` of `scholarly-metrics/webhooks` until it lands.
import type { ScoreUpdatedEvent } from 'scholarly-metrics';

export function createEventRelay() {
  const clients = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const encoder = new TextEncoder();
  return {
    handler(request: Request): Response {
      let self: ReadableStreamDefaultController<Uint8Array> | undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          self = controller;
          clients.add(controller);
          controller.enqueue(encoder.encode(': open\n\n'));
        },
        cancel() {
          if (self) clients.delete(self);
        },
      });
      request.signal.addEventListener('abort', () => self && clients.delete(self));
      return new Response(body, {
        headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' },
      });
    },
    publish(event: ScoreUpdatedEvent) {
      const chunk = encoder.encode(`data: ${JSON.stringify(event)}\n\n`);
      for (const client of clients) client.enqueue(chunk);
    },
    close() {
      for (const client of clients) client.close();
      clients.clear();
    },
  };
}
