/**
 * Nothing secret in what the telemetry records: a property test over random keys, search terms and
 * header values, against a real server on 127.0.0.1 that echoes all three in its error bodies. Every
 * span's attributes, events and status, and every metric's attributes, are checked for each of them
 * as written and percent-encoded, and for any query string.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../src/index.js';
import { useRealServer } from '../support.js';
import { useTelemetry } from './harness.js';

const otel = useTelemetry({ undici: false });
const server = useRealServer();

const visible = (min: number, max: number) =>
  fc.string({
    unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength: min,
    maxLength: max,
  });
const keys = visible(16, 40);
// Words of a search, spaces included: at least six characters, so that no SDK word can hold one.
const terms = fc
  .string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzÄé0123456789 -_'),
    minLength: 6,
    maxLength: 24,
  })
  .filter((term) => term.trim().length >= 6);
const headerValues = visible(12, 32);

/** Everything the telemetry recorded, as text: values only (the SDK's own names are no secret). */
async function recorded(): Promise<string[]> {
  const texts: string[] = [];
  for (const span of otel.spans()) {
    texts.push(...Object.values(span.attributes).map(String), span.status.message ?? '');
    for (const event of span.events) texts.push(...Object.values(event.attributes ?? {}).map(String));
  }
  for (const scope of (await otel.collect()).scopeMetrics) {
    for (const metric of scope.metrics) {
      for (const point of metric.dataPoints) texts.push(...Object.values(point.attributes).map(String));
    }
  }
  return texts;
}

describe('no secret in the telemetry', () => {
  it('no key, search term, header value or query string in any span, event or metric', async () => {
    await fc.assert(
      fc.asyncProperty(keys, terms, headerValues, async (key, term, headerValue) => {
        let attempt = 0;
        server.serve((req, res) => {
          attempt++;
          if (req.url?.startsWith('/api/v1/journals')) {
            res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
            return;
          }
          // Echo the secrets in every form a careless server might.
          const echo = `${req.headers.authorization} ${req.url} ${req.headers['x-custom']} ${encodeURIComponent(key)}`;
          res
            .writeHead(attempt === 1 ? 503 : 400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: 'bad', message: `refused ${echo}` }));
        });
        const client = server.client({ apiKey: key, telemetry: otel.telemetry, maxRetries: 1 });
        const search = client.papers.search({ q: term }, { headers: { 'x-custom': headerValue } });
        await expect(search).rejects.toBeInstanceOf(BadRequestError);
        await client.journals.get(1).asResponse();
        const texts = await recorded();
        const forbidden = [key, encodeURIComponent(key), term, encodeURIComponent(term), headerValue];
        for (const text of texts) {
          for (const secret of forbidden) expect(text).not.toContain(secret);
          expect(text).not.toMatch(/\?(?!\[query\])\S/);
        }
        // The search's span did record its failure, in the SDK's words.
        const [span] = otel.named('papers.search');
        expect(span!.status.message).toBe('BadRequestError: 400 Bad Request');
        expect(span!.attributes['error.type']).toBe('BadRequestError');
        otel.reset();
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});
