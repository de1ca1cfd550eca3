// The words a failed call's span is given: the error's class, and for an API answer its status and label.
import { describe, expect, it } from 'vitest';
import { BadRequestError, InternalServerError, NotFoundError, TimeoutError } from '../../src/index.js';
import { errorType, statusMessage } from '../../src/telemetry/attributes.js';

const key = 'sk_live_9dQ2mV7xK4pL8wZ3';
const named = (name: string, message = 'x') => Object.assign(new Error(message), { name });

describe('statusMessage', () => {
  it('an API error: its class, status and label, none of the message', () => {
    const body = { message: `bad key ${key}` };
    expect(statusMessage(new NotFoundError(404, new Headers(), body), key)).toBe(
      'NotFoundError: 404 Not Found',
    );
    expect(statusMessage(new BadRequestError(400, new Headers(), body), key)).toBe(
      'BadRequestError: 400 Bad Request',
    );
    expect(statusMessage(new InternalServerError(599, new Headers(), body), key)).toBe(
      'InternalServerError: 599 Server Error',
    );
  });

  it('any other error: its class alone', () => {
    expect(statusMessage(new TimeoutError(`GET /papers?q=${key} timed out`), key)).toBe('TimeoutError');
    expect(statusMessage(Object.assign(new Error('x'), { status: 'no' }), key)).toBe('Error');
    expect(statusMessage(Object.assign(new Error('x'), { status: 99_999 }), key)).toBe('Error');
    expect(statusMessage('thrown text', key)).toBe('_OTHER');
  });
});

describe('errorType', () => {
  it('a class name as it is; a name that is text, or holds the key, as `Error`', () => {
    expect(errorType(new TypeError('x'), key)).toBe('TypeError');
    expect(errorType(named('RedisError'), key)).toBe('RedisError');
    expect(errorType(named(`refused ${key}`), key)).toBe('Error');
    expect(errorType(named(key), key)).toBe('Error');
    expect(errorType(named('x'.repeat(65)), key)).toBe('Error');
    expect(errorType(named('Bad\u001b[2JName'), null)).toBe('Error');
    expect(errorType(42, key)).toBe('_OTHER');
  });
});
