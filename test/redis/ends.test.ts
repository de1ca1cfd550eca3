import { describe, expect, it, vi } from 'vitest';
import { EndedAttempts } from '../../src/redis/ends.js';

describe('EndedAttempts', () => {
  it('tells each end with how long ago its answer came, by this process’s clock', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const sent: string[][] = [];
      const ends = new EndedAttempts(50, async (tickets) => sent.push(tickets));
      ends.add('a.1');
      vi.advanceTimersByTime(3);
      ends.add('a.2');
      // Carried by an acquire 2 ms later: 5 and 2 ms ago (an end of this very ms goes bare).
      vi.advanceTimersByTime(2);
      const carried = ends.take();
      expect(carried).toEqual(['a.1@5', 'a.2@2']);
      // Its carrier failed: they go again as taken (later than their answers, never earlier), alone.
      ends.restore(carried);
      ends.add('a.3');
      expect(sent).toEqual([]);
      await vi.advanceTimersByTimeAsync(50);
      expect(sent).toEqual([['a.1@5', 'a.2@2', 'a.3@50']]);
      ends.add('~a.4', true);
      expect(sent.at(-1)).toEqual(['~a.4']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('hands an acquire that carries none a list of its own: ends added meanwhile are not put back twice', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const sent: string[][] = [];
      const ends = new EndedAttempts(50, async (tickets) => sent.push(tickets));
      const carried = ends.take();
      // Another call ends while the acquire waits for Redis; then the acquire fails.
      ends.add('b.1');
      ends.restore(carried);
      expect(carried).toEqual([]);
      await vi.advanceTimersByTimeAsync(50);
      expect(sent).toEqual([['b.1@50']]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the newest 10 000 ends whose send failed for flush, told as of then', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const sent: string[][] = [];
      let up = false;
      const ends = new EndedAttempts(50, async (tickets) => {
        if (!up) throw new Error('Connection is closed.');
        sent.push(tickets);
      });
      for (let i = 1; i <= 10_001; i++) ends.add(`a.${i}`);
      await vi.advanceTimersByTimeAsync(50);
      expect(sent).toEqual([]);
      await vi.advanceTimersByTimeAsync(1_000);
      up = true;
      await ends.flush();
      expect(sent).toHaveLength(1);
      expect(sent[0]).toHaveLength(10_000);
      expect(sent[0]?.[0]).toBe('a.2@1050');
      // Nothing left: a second flush sends nothing.
      await ends.flush();
      expect(sent).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
