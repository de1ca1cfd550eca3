import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { EventRelay } from '../../src/webhooks/index.js';

/** Reads a `text/event-stream` body one message (or comment) at a time, without its blank line. */
export function frames(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return {
    reader,
    async next(): Promise<string | undefined> {
      for (;;) {
        const end = buffered.indexOf('\n\n');
        if (end >= 0) {
          const frame = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          return frame;
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffered += decoder.decode(value, { stream: true });
      }
    },
  };
}

/** The `id` and parsed `data` of an event frame. */
export function eventOf(frame: string | undefined): { id: string; data: unknown } {
  const id = /^id: (.*)$/m.exec(frame ?? '')?.[1];
  const data = /^data: (.*)$/m.exec(frame ?? '')?.[1];
  if (id === undefined || data === undefined) throw new Error(`not an event frame: ${frame}`);
  return { id, data: JSON.parse(data) };
}

/** The relay behind Node's `http`, as docs/relay.md shows it. */
export function nodeListener(relay: EventRelay) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const headers = new Headers();
    const lastEventId = req.headers['last-event-id'];
    if (typeof lastEventId === 'string') headers.set('last-event-id', lastEventId);
    const request = new Request(new URL(req.url ?? '/', 'http://localhost'), {
      method: req.method,
      headers,
      signal: gone.signal,
    });
    const response = relay.handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) res.end();
    else pipeline(Readable.fromWeb(response.body as NodeReadableStream), res).catch(() => {});
  };
}
