/** Fuzzing a DOI: it reaches the server as exactly one path segment that decodes back to the DOI. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasUnsafe } from '../../src/core/escape.js';
import { InvalidParameterError, type MetricClient } from '../../src/index.js';
import { recordingClient } from '../helpers/calls.js';
import { testClient, useMsw } from '../support.js';
import { json } from './fault-server.js';
import { numRuns, useFuzz } from './fuzz-setup.js';
import { useFaultServers } from './harness.js';

const { figures, fuzz } = useFuzz('fuzz-doi');

describe('DOI: one path segment on a real server, decoding back to the DOI', () => {
  const servers = useFaultServers();

  /** Characters that would leave a path segment if they were not encoded, and their look-alikes. */
  const tricky = fc.constantFrom(
    '/',
    '?',
    '#',
    '%',
    '%2F',
    '%2f',
    '%3F',
    '%23',
    '%25',
    '%00',
    '%2e%2e',
    '..',
    '.',
    '\\',
    '&',
    '=',
    '+',
    ';',
    ' ',
    '\t',
    '\n',
    '\r\n',
    '\u0000',
    '\u007f',
    '\u00a0',
    '\u2028',
    '\ufeff',
    '😀',
    'é',
    '\u0301',
    '<',
    '>',
    '"',
    "'",
    '`',
    '{',
    '}',
    '|',
    '^',
    '[',
    ']',
    '@',
    ':',
    '$',
    ',',
    '!',
    '*',
    '(',
    ')',
    '~',
  );
  const piece = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 6 }), tricky);
  const text = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));
  /** Registrants as the DOI form allows them: no `/`, no white space, no character a terminal acts on. */
  const registrant = text
    .map((s) => s.replace(/[/\s\p{Cc}]/gu, ''))
    .filter((s) => s.length > 0 && !hasUnsafe(s))
    .map((s) => s.replace(/[\uD800-\uDFFF]/gu, 'x'));
  /** Suffixes as the DOI form allows them: no character a terminal acts on, no white space at the end. */
  const suffix = text
    .map((s) => s.replace(/\p{Cc}/gu, '').trimEnd())
    .filter((s) => s.length > 0 && !hasUnsafe(s))
    .map((s) => s.replace(/[\uD800-\uDFFF]/gu, 'x'));
  const wellFormedDoi = fc.tuple(registrant, suffix).map(([r, s]) => `10.${r}/${s}`);
  const anyDoi = fc.oneof(
    { weight: 4, arbitrary: wellFormedDoi },
    fc.string({ unit: 'binary' }),
    fc.string({ unit: 'binary' }).map((s) => `10.${s}`),
    fc.tuple(text, fc.string({ unit: 'binary' })).map(([r, s]) => `10.${r}/${s}`),
    fc.anything(),
  );

  /** A DOI drawn either from anything, or from the DOI form (which must never be refused). */
  const drawnDoi = fc.oneof(
    anyDoi.map((doi) => ({ doi, wellFormed: false })),
    wellFormedDoi.map((doi) => ({ doi, wellFormed: true })),
  );

  /** What the SDK did with one DOI: `url` is the path and query it sent, below the base's origin. */
  type Outcome = { refused: true } | { refused: false; url: string; paperDoi: string };

  function expectOneSegment(drawn: { doi: unknown; wellFormed: boolean }, outcome: Outcome) {
    if (outcome.refused) {
      expect(drawn.wellFormed).toBe(false);
      return;
    }
    const parts = outcome.url.split('/');
    expect(parts.slice(0, 4)).toEqual(['', 'api', 'v1', 'papers']);
    expect(parts).toHaveLength(5);
    expect(outcome.url).not.toMatch(/[?#]/);
    expect(decodeURIComponent(parts[4]!)).toBe(drawn.doi);
    expect(outcome.paperDoi).toBe(drawn.doi);
  }

  async function send(client: MetricClient, doi: unknown, options?: { headers: Record<string, string> }) {
    try {
      return await client.papers.get(doi as string, options);
    } catch (error) {
      if (error instanceof InvalidParameterError) return undefined;
      throw error;
    }
  }

  const paperAnswer = (doi: string) => ({
    id: 1,
    title: 'T',
    authors: 'A',
    doi,
    year: 2020,
    citations: 0,
    abstract: '',
  });

  describe('answered by msw', () => {
    // Its own block: the file's msw server would otherwise intercept the real server's requests.
    const server = useMsw();

    it(`as handed to fetch: one segment decoding back to the DOI, or refused unsent (${numRuns} runs)`, async () => {
      const { calls, sdk } = recordingClient(server, ({ pathname }) =>
        paperAnswer(decodeURIComponent(pathname.split('/').pop() ?? '')),
      );
      const counts = { sent: 0, refused: 0 };
      await fuzz(
        'DOI path segment (URL handed to fetch)',
        fc.asyncProperty(drawnDoi, async (drawn) => {
          calls.length = 0;
          const paper = await send(sdk, drawn.doi);
          const handed = calls.map((url) => url.pathname + url.search + url.hash);
          if (paper === undefined) {
            expect(handed).toEqual([]);
            counts.refused++;
            expectOneSegment(drawn, { refused: true });
            return;
          }
          counts.sent++;
          expect(handed).toHaveLength(1);
          expectOneSegment(drawn, { refused: false, url: handed[0]!, paperDoi: paper.doi });
        }) as never,
      );
      expect(counts.sent).toBeGreaterThan(numRuns / 2);
      expect(counts.refused).toBeGreaterThan(numRuns / 20);
    });
  });

  const realServerDois = 1_000;
  it(`on a real server: ${realServerDois} DOIs, 20 at a time, each one segment decoding back to the DOI`, async () => {
    /** The path each tagged request arrived with, as the server read it from the request line. */
    const arrived = new Map<string, string[]>();
    const scenario = servers.scenario((req, res, attempt) => {
      const tag = String(req.headers['x-fuzz']);
      const url = scenario.requests.at(-1)!.url;
      arrived.set(tag, [...(arrived.get(tag) ?? []), url]);
      const segment = url.split('/').pop() ?? '';
      json(paperAnswer(decodeURIComponent(segment)))(req, res, attempt);
    });
    const client = testClient({ maxRetries: 0 }, scenario);
    const batch = 20;
    let dois = 0;
    let tag = 0;
    await fuzz(
      `DOI path segment (real server, ${batch} per run)`,
      fc.asyncProperty(fc.array(drawnDoi, { minLength: batch, maxLength: batch }), async (drawns) => {
        await Promise.all(
          drawns.map(async (drawn) => {
            dois++;
            const id = String(++tag);
            const paper = await send(client, drawn.doi, { headers: { 'x-fuzz': id } });
            const seen = arrived.get(id) ?? [];
            if (paper === undefined) {
              expect(seen).toEqual([]);
              expectOneSegment(drawn, { refused: true });
              return;
            }
            expect(seen).toHaveLength(1);
            expectOneSegment(drawn, { refused: false, url: seen[0]!, paperDoi: paper.doi });
          }),
        );
      }) as never,
      realServerDois / batch,
    );
    figures.push({ target: 'DOIs sent to the real server', runs: dois, 'time (ms)': '' });
    expect(dois).toBeGreaterThanOrEqual(realServerDois);
    expect(servers.main.strays).toEqual([]);
  });
});
