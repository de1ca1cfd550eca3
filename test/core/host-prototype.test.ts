/**
 * A host app that adds an enumerable member to `Object.prototype` (old libraries do): the SDK sends
 * no such parameter, and its answers gain no such field. The prototype is put back after each test.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/testing/index.js';
import { testClient } from '../support.js';

const api = createMockApi({ sizes: { journals: 5, papers: 20, authors: 5, subjects: 3, countries: 3 } });
const prototype = Object.prototype as Record<string, unknown>;

afterEach(() => {
  delete prototype.hostExtension;
});

/** A client of the mock that records the URL of each request it sends. */
function recordingClient() {
  const urls: string[] = [];
  const client = testClient(
    {
      fetch: (input, init) => {
        urls.push(input instanceof Request ? input.url : String(input));
        return api.fetch(input, init);
      },
    },
    api,
  );
  return { client, urls };
}

describe('an Object.prototype a host app extended', () => {
  it('adds no parameter to any request', async () => {
    const { client, urls } = recordingClient();
    prototype.hostExtension = 'on';
    await client.countries.list({ show: 'all' });
    await client.papers.search({ q: 'coral' });
    await client.journals.papers(1, { per_page: 5 });
    expect(urls).toHaveLength(3);
    for (const url of urls) expect(new URL(url).searchParams.has('hostExtension')).toBe(false);
  });

  it('adds no field to an answer', async () => {
    const { client } = recordingClient();
    prototype.hostExtension = 'on';
    const journal = await client.journals.get(1);
    expect(Object.hasOwn(journal, 'hostExtension')).toBe(false);
    expect(JSON.stringify(journal)).not.toContain('hostExtension');
  });
});
