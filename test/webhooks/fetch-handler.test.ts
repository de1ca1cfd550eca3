import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError, MetricError } from '../../src/core/errors.js';
import { createWebhookHandler, type WebhookEvent } from '../../src/webhooks/index.js';
import { encode, invalidBodies, validEvent, validJson } from './fixtures.js';

const url = 'http://localhost/hooks/metric';
const post = (body: BodyInit | null, headers?: HeadersInit) =>
  new Request(url, { method: 'POST', body, headers });

/** A handler that records events and errors, with `console.error` kept quiet. */
function setup(onEvent: (event: WebhookEvent) => unknown = () => {}, maxBodyBytes?: number) {
  const events: WebhookEvent[] = [];
  const errors: unknown[] = [];
  const handler = createWebhookHandler(
    (event) => {
      events.push(event);
      return onEvent(event);
    },
    { onError: (error) => errors.push(error), ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }) },
  );
  return { handler, events, errors };
}

/** A streamed body (no Content-Length) that counts how many chunks were pulled. */
function streamOf(chunkCount: number, chunkSize: number) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled === chunkCount) return controller.close();
      state.pulled += 1;
      controller.enqueue(new Uint8Array(chunkSize).fill(0x20));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  const request = new Request(url, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
  return { request, state };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createWebhookHandler: success', () => {
  it('answers 200 {"received":true} and passes the typed event and the request', async () => {
    const seen: unknown[] = [];
    const handler = createWebhookHandler((event, context) => {
      seen.push(event, context.request.url);
    });
    const response = await handler(post(validJson));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ received: true });
    expect(seen).toEqual([validEvent, url]);
  });

  it('reads bodies sent as bytes, with a BOM, and with any or no Content-Type', async () => {
    const { handler, events } = setup();
    const bodies = [
      post(encode(validJson)),
      post(`\ufeff${validJson}`, { 'content-type': 'text/plain' }),
      post(new Blob([validJson])),
    ];
    for (const request of bodies) expect((await handler(request)).status).toBe(200);
    expect(events).toEqual([validEvent, validEvent, validEvent]);
  });

  it('keeps no memory of events: the same event delivered twice reaches the callback twice', async () => {
    const { handler, events } = setup();
    expect((await handler(post(validJson))).status).toBe(200);
    expect((await handler(post(validJson))).status).toBe(200);
    expect(events).toEqual([validEvent, validEvent]);
  });

  it('waits for an async callback before answering', async () => {
    let finished = false;
    const { handler } = setup(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished = true;
    });
    const response = await handler(post(validJson));
    expect(finished).toBe(true);
    expect(response.status).toBe(200);
  });
});

describe('createWebhookHandler: refusals', () => {
  it.each(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'])(
    'answers %s with 405 and Allow: POST',
    async (method) => {
      const { handler, events } = setup();
      const hasBody = method !== 'GET' && method !== 'HEAD';
      const response = await handler(new Request(url, { method, body: hasBody ? validJson : null }));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      if (method !== 'HEAD') expect(await response.json()).toMatchObject({ error: 'method_not_allowed' });
      expect(events).toEqual([]);
    },
  );

  it.each(invalidBodies)('answers 400 with the reason for %s', async (_name, body, message) => {
    const { handler, events, errors } = setup();
    const response = await handler(post(body));
    expect(response.status).toBe(400);
    const answer = await response.json();
    expect(answer.error).toBe('invalid_payload');
    expect(answer.message).toContain(message);
    expect(events).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('answers 400 when the body stream breaks', async () => {
    const { handler, events } = setup();
    const stream = new ReadableStream({
      pull(controller) {
        controller.error(new Error('connection reset'));
      },
    });
    const response = await handler(
      new Request(url, { method: 'POST', body: stream, duplex: 'half' } as RequestInit),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).message).toContain('could not be read');
    expect(events).toEqual([]);
  });
});

describe('createWebhookHandler: size cap', () => {
  it('accepts a body of exactly maxBodyBytes and refuses one byte more', async () => {
    const padded = (size: number) => validJson.padEnd(size, ' ');
    const { handler, events } = setup(undefined, 200);
    expect((await handler(post(padded(200)))).status).toBe(200);
    const response = await handler(post(padded(201)));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: 'payload_too_large',
      message: 'the body is larger than 200 bytes',
    });
    expect(events).toHaveLength(1);
  });

  it('uses 65,536 bytes by default', async () => {
    const { handler } = setup();
    expect((await handler(post(validJson.padEnd(65_536, ' ')))).status).toBe(200);
    expect((await handler(post(validJson.padEnd(65_537, ' ')))).status).toBe(413);
  });

  it('refuses on a declared Content-Length without reading the body', async () => {
    // The real body (100 KB of spaces) is under the cap: only the header can cause the 413.
    const { handler } = setup(undefined, 1_000_000);
    const { request, state } = streamOf(100, 1_000);
    const declared = new Request(request, { headers: { 'content-length': '10000000' } });
    const response = await handler(declared);
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(10);
  });

  it.each(['1e9', '0x400', '12, 12'])(
    'leaves a malformed Content-Length (%s) to the reading, which counts the bytes',
    async (length) => {
      const { handler, events } = setup(undefined, 1_000);
      expect((await handler(post(validJson, { 'content-length': length }))).status).toBe(200);
      expect(events).toHaveLength(1);
    },
  );

  it('stops reading a streamed body (no Content-Length) once past the cap', async () => {
    const { handler, events } = setup(undefined, 10_000);
    const { request, state } = streamOf(1_000, 4_096);
    expect(request.headers.get('content-length')).toBeNull();
    const response = await handler(request);
    expect(response.status).toBe(413);
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(10);
    expect(events).toEqual([]);
  });
});

describe('createWebhookHandler: callback errors', () => {
  it.each([
    [
      'throws',
      () => {
        throw new Error('database password is hunter2');
      },
    ],
    ['rejects', async () => Promise.reject(new Error('database password is hunter2'))],
  ])('answers 500 without details when the callback %s, and reports the error', async (_name, onEvent) => {
    const { handler, errors } = setup(onEvent);
    const response = await handler(post(validJson));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('hunter2');
    expect(JSON.parse(text)).toEqual({ error: 'internal_error', message: 'the webhook receiver failed' });
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('database password is hunter2');
  });

  it('still answers 500 when onError itself throws or rejects', async () => {
    for (const onError of [
      () => {
        throw new Error('logger down');
      },
      async () => Promise.reject(new Error('logger down')),
    ]) {
      const handler = createWebhookHandler(
        () => {
          throw new Error('callback');
        },
        { onError },
      );
      expect((await handler(post(validJson))).status).toBe(500);
    }
  });

  it('logs with console.error when no onError is given', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new Error('callback');
    const handler = createWebhookHandler(() => {
      throw failure;
    });
    expect((await handler(post(validJson))).status).toBe(500);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('webhook delivery failed'), failure);
  });

  it('answers 500 and reports when the request object itself throws', async () => {
    const { handler, errors } = setup();
    const broken = {
      method: 'POST',
      headers: {
        get() {
          throw new Error('broken headers');
        },
      },
    } as unknown as Request;
    expect((await handler(broken)).status).toBe(500);
    expect(errors.map(String)).toEqual(['Error: broken headers']);
  });

  it.each([
    ['a Hono context (app.post(path, handler))', { req: { raw: post(validJson) } }],
    ['a Node request', { method: 'POST', headers: { 'content-type': 'application/json' } }],
    ['undefined', undefined],
  ])('answers 500 and says what it needs when called with %s', async (_name, notARequest) => {
    const { handler, events, errors } = setup();
    const response = await handler(notARequest as unknown as Request);
    expect(response.status).toBe(500);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(MetricError);
    expect(String(errors[0])).toContain('called with something that is not a Fetch Request');
    expect(String(errors[0])).toContain('in Hono pass c.req.raw');
    expect(events).toEqual([]);
  });

  it('answers 500 and reports when the body was already read', async () => {
    const { handler, errors, events } = setup();
    const request = post(validJson);
    await request.text();
    expect((await handler(request)).status).toBe(500);
    expect(String(errors[0])).toContain('already read');
    expect(events).toEqual([]);
  });

  it('answers 500 and reports when other code holds a reader of the body, unread', async () => {
    const { handler, errors, events } = setup();
    const request = post(validJson);
    request.body?.getReader();
    expect((await handler(request)).status).toBe(500);
    expect(String(errors[0])).toContain('already read');
    expect(events).toEqual([]);
  });
});

describe('createWebhookHandler: options', () => {
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '100'])(
    'refuses maxBodyBytes %s',
    (maxBodyBytes) => {
      expect(() => createWebhookHandler(() => {}, { maxBodyBytes: maxBodyBytes as number })).toThrow(
        ConfigurationError,
      );
    },
  );

  it('refuses a callback or onError that is not a function', () => {
    expect(() => createWebhookHandler('nope' as never)).toThrow(/onEvent must be a function, got string/);
    expect(() => createWebhookHandler(null as never)).toThrow(/onEvent must be a function, got null$/);
    expect(() => createWebhookHandler(() => {}, { onError: 1 as never })).toThrow(
      /`onError` must be a function/,
    );
  });
});
