// The built client (dist/index.js) in Chromium, against the mock API over real HTTP, cross-origin.
import {
  AuthenticationError,
  BadRequestError,
  InvalidParameterError,
  MetricClient,
  MetricError,
  NotFoundError,
  PermissionDeniedError,
} from 'scholarly-metrics';
import { describe, expect, inject, test } from 'vitest';
// test/support.ts cannot load in Chromium; the key's own file imports nothing.
import { UNKNOWN_KEY } from '../helpers/test-key.js';
import { client } from './helpers.js';

test('runs the built package in a real browser, cross-origin to the mock', () => {
  expect(typeof document).toBe('object');
  expect(navigator.userAgent).toMatch(/Chrome/);
  expect(new URL(inject('mockUrl')).origin).not.toBe(location.origin);
  const loaded = performance.getEntriesByType('resource').map((entry) => entry.name);
  expect(loaded.some((url) => /\/dist\/index\.js(\?|$)/.test(url))).toBe(true);
  expect(loaded.some((url) => /\/src\/(client|index)\.ts/.test(url))).toBe(false);
});

describe('an API key in a browser', () => {
  test('is refused without dangerouslyAllowBrowser, naming the safe alternative', () => {
    const make = () => new MetricClient({ apiKey: inject('apiKey'), baseUrl: inject('mockUrl') });
    expect(make).toThrow(MetricError);
    expect(make).toThrow(/browser.*apiKey: null|dangerouslyAllowBrowser/s);
    try {
      make();
    } catch (error) {
      expect(String(error)).not.toContain(inject('apiKey'));
    }
  });

  test('is sent with the opt-in', async () => {
    const subjects = await client().subjects.list();
    expect(subjects.length).toBeGreaterThan(0);
  });

  test('apiKey: null needs no opt-in and sends no Authorization (the mock answers 401)', async () => {
    const proxied = new MetricClient({ apiKey: null, baseUrl: inject('mockUrl') });
    const error = await proxied.journals.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
  });
});

describe('lookups', () => {
  test('every plain endpoint', async () => {
    const c = client();
    const journals = await c.journals.list();
    expect(journals.length).toBeGreaterThan(0);
    const first = journals[0]!;
    expect(first).toMatchObject({ id: expect.any(Number), name: expect.any(String) });

    const profile = await c.journals.get(first.id);
    expect(profile.id).toBe(first.id);
    expect(typeof profile.oa).toBe('boolean');

    const score = await c.journals.score(first.id);
    expect(score.history[0]?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const subjects = await c.subjects.list();
    expect(subjects[0]).toMatchObject({ slug: expect.any(String) });
    const countries = await c.countries.list({ show: 'all' });
    expect(countries.length).toBeGreaterThan(0);

    const authors = await c.authors.list({ page: 1 });
    const author = await c.authors.get(authors.data[0]!.id);
    expect(Array.isArray(author.papers)).toBe(true);
  });

  test('papers by DOI: each awkward DOI travels as one encoded path segment', async () => {
    const c = client();
    for (const doi of inject('dois')) {
      const paper = await c.papers.get(doi);
      expect(paper.doi).toBe(doi);
    }
  });

  test('paper search with filters', async () => {
    const page = await client().papers.search({ q: 'a', oa: true, sort: 'citations', per_page: 5 });
    expect(page.data.length).toBeLessThanOrEqual(5);
    expect(page.total).toBeGreaterThanOrEqual(page.data.length);
  });
});

describe('pagination', () => {
  test('a for-await walk yields every item of every page, once', async () => {
    const c = client();
    const journals = await c.journals.list();
    // A journal with a few pages' worth of papers.
    let id = journals[0]!.id;
    let total = 0;
    for (const journal of journals) {
      total = (await c.journals.papers(journal.id, { per_page: 1 })).total;
      id = journal.id;
      if (total >= 12) break;
    }
    expect(total).toBeGreaterThanOrEqual(12);
    const ids: number[] = [];
    for await (const paper of c.journals.papers(id, { per_page: 5 })) ids.push(paper.id);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
  });

  test('.pages() and getNextPage(), and a break that stops the walk', async () => {
    const c = client();
    const first = await c.authors.list({ q: 'a' });
    expect(first.page).toBe(1);
    expect(first.hasNextPage()).toBe(true);
    const second = await first.getNextPage();
    expect(second.page).toBe(2);
    expect(second.data[0]?.id).not.toBe(first.data[0]?.id);

    let pages = 0;
    for await (const page of c.papers.search({ q: 'a', per_page: 3 }).pages()) {
      expect(page.data.length).toBeGreaterThan(0);
      if (++pages === 3) break;
    }
    expect(pages).toBe(3);
  });
});

describe('typed errors', () => {
  test('404 NotFoundError for an unknown id and an unknown DOI', async () => {
    const c = client();
    const byId = await c.journals.get(999_999_999).catch((e: unknown) => e);
    expect(byId).toBeInstanceOf(NotFoundError);
    expect(byId).toMatchObject({ status: 404 });
    const byDoi = await c.papers.get('10.1000/no-such-paper').catch((e: unknown) => e);
    expect(byDoi).toBeInstanceOf(NotFoundError);
  });

  test('401 AuthenticationError for an unknown key, without echoing it', async () => {
    const c = new MetricClient({
      apiKey: UNKNOWN_KEY,
      baseUrl: inject('mockUrl'),
      dangerouslyAllowBrowser: true,
    });
    const error = await c.subjects.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(JSON.stringify(error)).not.toContain(UNKNOWN_KEY);
    expect(String(error)).not.toContain(UNKNOWN_KEY);
  });

  test('403 PermissionDeniedError for a plan without API access', async () => {
    const c = new MetricClient({
      apiKey: inject('noAccessKey'),
      baseUrl: inject('mockUrl'),
      dangerouslyAllowBrowser: true,
    });
    await expect(c.subjects.list()).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  test('400 BadRequestError from the server for a sort it does not know', async () => {
    const error = await client()
      .papers.search({ q: 'a', sort: 'no-such-sort' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).body).toBeTruthy();
  });

  test('InvalidParameterError before sending anything', async () => {
    let sent = 0;
    const c = new MetricClient({
      apiKey: inject('apiKey'),
      baseUrl: inject('mockUrl'),
      dangerouslyAllowBrowser: true,
      fetch: (input, init) => {
        sent++;
        return fetch(input, init);
      },
    });
    const error = await c.journals.get(1.5).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect((error as InvalidParameterError).parameter).toBeTruthy();
    await expect(c.papers.search({ page: 0 })).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(c.papers.get('not a doi')).rejects.toBeInstanceOf(InvalidParameterError);
    // @ts-expect-error: a value the types already refuse, as plain JavaScript could pass it
    await expect(c.countries.list({ show: 'some' })).rejects.toBeInstanceOf(InvalidParameterError);
    expect(sent).toBe(0);
    await c.countries.list({ show: 'active' });
    expect(sent).toBe(1);
  });
});

test('the build-time parsers took every body, and the common path never loaded the chunks it does not need', () => {
  // Every test above got valid bodies or errors that need no explaining: neither zod's runtime
  // (loaded only for a body the generated parser leaves to it) nor the English for zod's issues was
  // downloaded.
  const loaded = performance.getEntriesByType('resource').map((entry) => entry.name);
  expect(loaded.some((url) => /\/dist\/index\.js(\?|$)/.test(url))).toBe(true);
  expect(loaded.filter((url) => /zod/.test(url) && !/\/dist\//.test(url))).toEqual([]);
  expect(loaded.filter((url) => /\/dist\/response-schemas-/.test(url))).toEqual([]);
});
