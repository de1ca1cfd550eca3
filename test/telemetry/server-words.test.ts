/**
 * A failed call's span says what the SDK knows, never what the server (or Redis) wrote: a real
 * server on 127.0.0.1 echoes the key, a search term and a hook's credential in every shape a
 * redaction could miss, and each span's status is the error's class, the status and its label alone.
 * The error the caller gets keeps the server's text.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { BadRequestError, QuotaUnavailableError } from '../../src/index.js';
import { createRedisQuota } from '../../src/redis/index.js';
import { failure } from '../helpers/calls.js';
import { TEST_KEY, useRealServer } from '../support.js';
import { useTelemetry } from './harness.js';

const otel = useTelemetry({ undici: false });
const server = useRealServer();

const term = 'glacier retreat modelling';
const base64 = (text: string) => Buffer.from(text).toString('base64');

/** Every text a span recorded: its attributes' values, its events' values and its status message. */
function recorded(span: ReadableSpan): string {
  const values = [
    ...Object.values(span.attributes),
    ...span.events.flatMap((event) => Object.values(event.attributes ?? {})),
    span.status.message,
  ];
  return values.map(String).join('\n');
}

/** A server that answers 400 with `echo(request)` as its explanation. */
function echoing(echo: (req: import('node:http').IncomingMessage) => string) {
  server.serve((req, res) => {
    const body = JSON.stringify({ error: 'bad_request', message: `refused: ${echo(req)}` });
    res.writeHead(400, { 'content-type': 'application/json' }).end(body);
  });
}

describe("a failed call's span holds the SDK's words alone", () => {
  const keyEchoes = {
    raw: TEST_KEY,
    'upper-cased': TEST_KEY.toUpperCase(),
    'as base64': base64(TEST_KEY),
    'as base64 of `Bearer <key>`': base64(`Bearer ${TEST_KEY}`),
    'as base64 of `Authorization: Bearer <key>`': base64(`Authorization: Bearer ${TEST_KEY}`),
  };

  it.each(Object.entries(keyEchoes))('the key echoed %s', async (_shape, echo) => {
    echoing(() => echo);
    const client = server.client({ apiKey: TEST_KEY, telemetry: otel.telemetry, maxRetries: 0 });
    const error = await failure(client.journals.get(1));
    expect(error).toBeInstanceOf(BadRequestError);
    const [span] = otel.named('journals.get');
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'BadRequestError: 400 Bad Request' });
    expect(recorded(span!).toLowerCase()).not.toContain(echo.toLowerCase());
    // The caller's error keeps what the server explained, the key cut out where it can be told.
    expect(error.message).toContain('refused:');
  });

  const termEchoes = {
    'upper-cased': term.toUpperCase(),
    'split in words': term.split(' ').join(' … '),
    'cut short': term.slice(0, 10),
  };

  it.each(Object.entries(termEchoes))('a search term echoed %s', async (_shape, echo) => {
    echoing(() => echo);
    const client = server.client({ telemetry: otel.telemetry, maxRetries: 0 });
    const error = await failure(client.papers.search({ q: term }));
    expect(error.message).toContain(echo);
    const [span] = otel.named('papers.search');
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'BadRequestError: 400 Bad Request' });
    const text = recorded(span!).toLowerCase();
    for (const word of [...term.split(' '), term.slice(0, 10)]) expect(text).not.toContain(word);
  });

  it("a credential a beforeRequest hook sets, echoed back, and a retry's event", async () => {
    const token = 'per-user-token-5c1f7e93';
    let attempt = 0;
    server.serve((req, res) => {
      attempt++;
      const status = attempt === 1 ? 503 : 400;
      const body = JSON.stringify({ message: `you sent ${req.headers.authorization}` });
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
    const client = server.client({
      telemetry: otel.telemetry,
      maxRetries: 1,
      hooks: { beforeRequest: [({ request }) => request.headers.set('authorization', `Bearer ${token}`)] },
    });
    const error = await failure(client.countries.list());
    expect(error.message).toContain(token);
    const [span] = otel.named('countries.list');
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'BadRequestError: 400 Bad Request' });
    expect(span!.events.map((event) => event.attributes?.['scholarly_metrics.retry.reason'])).toEqual([
      '503',
    ]);
    expect(recorded(span!)).not.toContain(token);
  });

  it('a Redis error that holds the password: the class alone', async () => {
    const password = 'hunter2-redis-pass';
    const refuse = () => Promise.reject(new Error(`WRONGPASS invalid password '${password}'`));
    const quota = createRedisQuota({ redis: { evalSha: refuse, eval: refuse }, maxConcurrency: 2 });
    const client = server.client({ telemetry: otel.telemetry, quota, maxRetries: 0 });
    const error = await failure(client.journals.get(1));
    expect(error).toBeInstanceOf(QuotaUnavailableError);
    expect(error.message).toContain('WRONGPASS');
    const [span] = otel.named('journals.get');
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'QuotaUnavailableError' });
    expect(recorded(span!)).not.toContain(password);
  });
});
