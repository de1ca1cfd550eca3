import { describe, expect, it } from 'vitest';
import { describeChain } from '../../src/core/cause-reason.js';

describe('describeChain', () => {
  it('names the lowest reason of the chain and the error code found on the way', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const lookup = Object.assign(new Error('getaddrinfo failed'), { code: 'ENOTFOUND' });
    expect(describeChain(new TypeError('fetch failed', { cause: refused }))).toBe(
      'fetch failed: connect ECONNREFUSED 127.0.0.1:9',
    );
    expect(describeChain(new TypeError('fetch failed', { cause: lookup }))).toBe(
      'fetch failed: getaddrinfo failed (ENOTFOUND)',
    );
  });

  it('describes what is no Error by its text, and one whose text throws by its type', () => {
    expect(describeChain(null)).toBe('null');
    expect(describeChain({ toString: () => 'a reason' })).toBe('a reason');
    const hostile = {
      toString() {
        throw new Error('no');
      },
    };
    expect(describeChain(hostile)).toBe('object');
  });
});
