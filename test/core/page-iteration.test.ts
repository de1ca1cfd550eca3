import { describe, expect, it } from 'vitest';
import { type Page, type PaperSummary, RequestAbortedError } from '../../src/index.js';
import { createMockApi } from '../../src/testing/index.js';
import { testClient } from '../support.js';

function mockClient() {
  const api = createMockApi();
  return {
    api,
    client: testClient({}, api),
  };
}

describe('an awaited Page is async-iterable', () => {
  it('yields this page’s items, then those of every page after it', async () => {
    const { client } = mockClient();
    const all = await client.journals.papers(1).toArray({ limit: Number.POSITIVE_INFINITY });
    expect(all.length).toBeGreaterThan(3);
    const page = await client.journals.papers(1, { page: 2, per_page: 2 });
    const seen: number[] = [];
    for await (const paper of page) seen.push(paper.id);
    expect(seen).toEqual(all.slice(2).map((paper) => paper.id));
  });

  it('stops requesting when the loop is left', async () => {
    const { api, client } = mockClient();
    const page: Page<PaperSummary> = await client.papers.search({ q: 'coral', per_page: 2 });
    expect(page.hasNextPage()).toBe(true);
    const before = api.requests.length;
    let count = 0;
    for await (const _paper of page) {
      count++;
      if (count === 3) break;
    }
    // Items 1–2 come from the awaited page, item 3 from page 2: one request more, no page 3.
    expect(api.requests.length - before).toBe(1);
    expect(api.requests.at(-1)?.path).toContain('page=2');
  });
});

/** A signal that is not the runtime's own (a polyfill's, or another realm's), counting its listeners. */
class ForeignSignal extends EventTarget {
  aborted = false;
  reason: unknown = undefined;
  listeners = 0;
  throwIfAborted() {
    if (this.aborted) throw this.reason;
  }
  abort(reason: unknown) {
    this.aborted = true;
    this.reason = reason;
    this.dispatchEvent(new Event('abort'));
  }
  override addEventListener(...args: Parameters<EventTarget['addEventListener']>) {
    this.listeners++;
    super.addEventListener(...args);
  }
  override removeEventListener(...args: Parameters<EventTarget['removeEventListener']>) {
    this.listeners--;
    super.removeEventListener(...args);
  }
}

describe('a walk given a signal that is not the runtime’s own, as a call takes it', () => {
  it('walks, and leaves no listener on it', async () => {
    const { client } = mockClient();
    const signal = new ForeignSignal();
    const titles: string[] = [];
    const walk = client.papers.search(
      { q: 'coral', per_page: 2 },
      { signal: signal as unknown as AbortSignal },
    );
    for await (const paper of walk) if (titles.push(String(paper.title)) === 5) break;
    expect(titles).toHaveLength(5);
    expect(signal.listeners).toBe(0);
  });

  it('ends the walk with a RequestAbortedError once it aborts', async () => {
    const { client } = mockClient();
    const signal = new ForeignSignal();
    const walk = client.papers.search(
      { q: 'coral', per_page: 2 },
      { signal: signal as unknown as AbortSignal },
    );
    const failure = await (async () => {
      let seen = 0;
      for await (const _paper of walk) if (++seen === 3) signal.abort(new Error('enough'));
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RequestAbortedError);
    expect(signal.listeners).toBe(0);
  });
});
