/**
 * The key in any encoding, in any place a server or a hook can put it, never comes out: a property
 * test over random keys × encodings × places, against real servers on 127.0.0.1. Each run checks
 * the error (message, `body`, `headers`, `cause` chain, with everything `util.inspect` shows) and
 * every log line at every level for the key as written and for the encoding used.
 */
import { format, inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ClientOptions } from '../../src/client-options.js';
import { type MetricClient, MetricError } from '../../src/index.js';
import { failure } from '../helpers/calls.js';
import { recordingLogger, testClient, useRealServer } from '../support.js';

const server = useRealServer();

const hex = (character: string) => character.charCodeAt(0).toString(16).padStart(2, '0');
const each = (key: string, encode: (character: string) => string) => [...key].map(encode).join('');

/** One character written each way a body, a URL or a page may write it. */
const characterWays: Array<(character: string) => string> = [
  (c) => c,
  (c) => `%${hex(c).toUpperCase()}`,
  (c) => `%${hex(c)}`,
  (c) => `\\u00${hex(c)}`,
  (c) => `&#${c.charCodeAt(0)};`,
  (c) => `&#x${hex(c)};`,
];

/** Whole-key encodings; `mixed` picks a way per character, `split` encodes one character only. */
const encodings: Record<string, (key: string, picks: number[]) => string> = {
  raw: (key) => key,
  'percent, upper case': (key) => each(key, characterWays[1]!),
  'percent, lower case': (key) => each(key, characterWays[2]!),
  encodeURIComponent: (key) => encodeURIComponent(key),
  'form encoding': (key) => new URLSearchParams({ k: key }).toString().slice(2),
  'JSON with \\/': (key) => JSON.stringify(key).slice(1, -1).replaceAll('/', '\\/'),
  'JSON escapes, then percent-encoded': (key) => encodeURIComponent(JSON.stringify(key).slice(1, -1)),
  'JSON \\u escapes': (key) => each(key, characterWays[3]!),
  'HTML decimal references': (key) => each(key, characterWays[4]!),
  'HTML hex references': (key) => each(key, characterWays[5]!),
  'HTML named entities': (key) =>
    key.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`),
  mixed: (key, picks) =>
    [...key].map((c, i) => characterWays[picks[i % picks.length]! % characterWays.length]!(c)).join(''),
  'split by one encoded character': (key, picks) => {
    const at = picks[0]! % key.length;
    return `${key.slice(0, at)}%${hex(key[at]!).toUpperCase()}${key.slice(at + 1)}`;
  },
};

const keys = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
  minLength: 16,
  maxLength: 40,
});
const picks = fc.array(fc.nat(60), { minLength: 1, maxLength: 8 });
const encodingNames = fc.constantFrom(...Object.keys(encodings));

/** Everything a user, a logger or an error tracker may turn an error into. */
function views(error: unknown): string[] {
  const out = [inspect(error, { showHidden: true, depth: Number.POSITIVE_INFINITY, getters: true })];
  out.push(format('%o', error));
  try {
    out.push(JSON.stringify(error) ?? '');
  } catch {}
  if (error instanceof Error) {
    out.push(error.message, String(error), error.stack ?? '');
    const { body, headers } = error as { body?: unknown; headers?: unknown };
    out.push(inspect(body, { depth: Number.POSITIVE_INFINITY }), inspect(headers, { showHidden: true }));
    let cause = error.cause;
    for (let depth = 0; cause !== undefined && depth < 10; depth++) {
      out.push(inspect(cause, { showHidden: true, depth: Number.POSITIVE_INFINITY, getters: true }));
      cause = (cause as { cause?: unknown } | null)?.cause;
    }
  }
  return out;
}

/** What one place does with the key and its encoding: the call that fails, and how the client is made. */
interface Place {
  options?: (key: string, encoded: string) => ClientOptions;
  serve?: (key: string, encoded: string) => Parameters<typeof server.serve>[0];
  call: (client: MetricClient, key: string) => PromiseLike<unknown>;
  /** Retried once, so that the retry's info line is checked too (each run then waits a backoff). */
  retried?: boolean;
}

const places: Record<string, Place> = {
  'a 401 JSON body': {
    serve: (_key, encoded) => (_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `denied for ${encoded}`, detail: { key: encoded } }));
    },
    call: (client) => client.subjects.list(),
  },
  'a 500 text body': {
    serve: (_key, encoded) => (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end(`<p>Bad key ${encoded}</p>`);
    },
    call: (client) => client.subjects.list(),
  },
  'a 200 body that does not validate': {
    serve: (_key, encoded) => (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`[{"id":${JSON.stringify(encoded)},"name":1}]`);
    },
    call: (client) => client.subjects.list(),
  },
  'the error headers': {
    serve: (_key, encoded) => (_req, res) => {
      res.writeHead(403, { 'x-echo': encoded, 'www-authenticate': `Bearer error="${encoded}"` });
      res.end();
    },
    call: (client) => client.subjects.list(),
  },
  'a hook’s error with the Request attached': {
    options: (_key, encoded) => ({
      hooks: {
        beforeRequest: [
          ({ request }) => {
            throw Object.assign(new Error(`refused ${encoded}`), { request, headers: request.headers });
          },
        ],
      },
    }),
    call: (client) => client.subjects.list(),
  },
  'a custom fetch’s error holding the Request': {
    options: (_key, encoded) => ({
      fetch: async (input) => {
        const cause = Object.assign(new Error(`socket closed for ${encoded}`), { code: 'ECONNRESET' });
        throw Object.assign(new TypeError('fetch failed', { cause }), { request: input, detail: encoded });
      },
    }),
    call: (client) => client.subjects.list(),
  },
  'the URL query, by a parameter and by a hook': {
    options: (_key, encoded) => ({
      hooks: {
        beforeRequest: [({ request }) => new Request(`${request.url}&k=${encoded}`, request)],
      },
    }),
    serve: () => (_req, res) => {
      res.destroy();
    },
    call: (client, key) => client.papers.search({ q: key }),
    retried: true,
  },
};

describe('the key, in any encoding, in any place: never in an error or a log line', () => {
  it.each(Object.keys(places))(
    '%s',
    async (placeName) => {
      const place = places[placeName]!;
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(keys, encodingNames, picks, async (key, encodingName, chosen) => {
          runs++;
          const encoded = encodings[encodingName]!(key, chosen);
          if (place.serve) server.serve(place.serve(key, encoded));
          const { logger, rendered } = recordingLogger();
          const client = testClient(
            {
              apiKey: key,
              maxRetries: place.retried ? 1 : 0,
              logLevel: 'debug',
              logger,
              ...place.options?.(key, encoded),
            },
            { base: server.base },
          );
          const error = await failure(() => place.call(client, key));
          expect(error).toBeInstanceOf(MetricError);
          // The end of the encoding too: a match that stops short leaves the key's tail in view.
          const tail = encoded.slice(-Math.max(8, Math.floor(encoded.length / 3)));
          for (const text of [...views(error), ...rendered()]) {
            const leaks = text.includes(key) || text.includes(encoded) || text.includes(tail);
            expect({ encodingName, leaks }).toEqual({
              encodingName,
              leaks: false,
            });
          }
        }),
        { numRuns: place.retried ? 10 : 40 },
      );
      expect(runs).toBe(place.retried ? 10 : 40);
      // Each retried run waits out a real backoff (0.5–1 s): time enough on a loaded machine.
    },
    120_000,
  );
});
