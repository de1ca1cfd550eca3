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

  it('never throws: an error whose cause getter throws, or whose message is a symbol, is described as text', () => {
    const throwingCause = Object.defineProperty(new Error('outer'), 'cause', {
      get() {
        throw new Error('getter boom');
      },
    });
    expect(describeChain(throwingCause)).toBe('Error: outer');
    const symbolMessage = Object.assign(new Error(), { message: Symbol('s') });
    expect(describeChain(symbolMessage)).toBe('Symbol(s)');
    const symbolBelow = new Error('outer', { cause: Object.assign(new Error(), { message: Symbol('s') }) });
    expect(describeChain(symbolBelow)).toBe('outer');
  });
});
