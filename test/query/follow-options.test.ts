// queries.follow's checks of its options and of the address it opens.
import { describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/core/errors.js';
import { follow } from '../../src/query/follow.js';
import { thrown } from '../helpers/calls.js';
import { FakeEventSource, queryClient } from './follow-setup.js';

describe('follow', () => {
  it('says so when the runtime has no EventSource, and checks its options', () => {
    vi.stubGlobal('EventSource', undefined);
    try {
      expect(() => follow(queryClient, '/events', async () => {})).toThrow(ConfigurationError);
      expect(() => follow(queryClient, '/events', async () => {})).toThrow('no EventSource: pass one');
    } finally {
      vi.unstubAllGlobals();
    }
    const eventSource = (url: string) => new FakeEventSource(url);
    expect(() => follow(queryClient, '/e', async () => {}, { eventSource, reconnectMs: 0 })).toThrow(
      '`reconnectMs` must be an integer',
    );
    expect(() => follow(queryClient, '/e', async () => {}, { eventSource: 'x' as never })).toThrow(
      ConfigurationError,
    );
  });

  it('refuses a `missed` that is no function, which would fail unseen when events are lost', () => {
    const eventSource = (url: string) => new FakeEventSource(url);
    for (const missed of [true, 'refetch', 42, null]) {
      expect(() =>
        follow(queryClient, '/e', async () => {}, { eventSource, missed: missed as never }),
      ).toThrow(expect.objectContaining({ name: 'ConfigurationError', option: 'missed' }));
    }
  });

  it('refuses an address that is not a string or a URL', () => {
    const opened: string[] = [];
    const eventSource = (url: string) => {
      opened.push(url);
      return new FakeEventSource(url);
    };
    for (const url of [undefined, null, 42, { href: '/events' }]) {
      expect(() => follow(queryClient, url as never, async () => {}, { eventSource })).toThrow(
        expect.objectContaining({ name: 'ConfigurationError', option: 'url' }),
      );
    }
    expect(opened).toEqual([]);
    follow(queryClient, new URL('http://localhost/events'), async () => {}, { eventSource })();
    expect(opened).toEqual(['http://localhost/events']);
  });

  it('refuses an address no EventSource could open, without quoting it, instead of retrying it for ever', () => {
    const opened: string[] = [];
    const eventSource = (url: string) => {
      opened.push(url);
      return new FakeEventSource(url);
    };
    const addresses = ['', '  ', 'http://[secret-token', 'ftp://localhost/events', 'javascript:void 0'];
    for (const url of [...addresses, new URL('ws://localhost/events')]) {
      const refusal = thrown(
        () => follow(queryClient, url, async () => {}, { eventSource }),
        ConfigurationError,
      );
      expect(refusal).toMatchObject({
        option: 'url',
        message: expect.stringContaining('an http(s) URL'),
      });
      expect((refusal as Error).message).not.toContain('secret-token');
    }
    expect(opened).toEqual([]);
  });

  it('takes a relative address, which the page resolves', () => {
    const opened: string[] = [];
    const eventSource = (url: string) => {
      opened.push(url);
      return new FakeEventSource(url);
    };
    follow(queryClient, 'events', async () => {}, { eventSource })();
    follow(queryClient, '/api/events?since=1', async () => {}, { eventSource })();
    expect(opened).toEqual(['events', '/api/events?since=1']);
  });
});
