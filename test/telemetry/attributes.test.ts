// The words a failed call's span is given: the error's class, and for an API answer its status and label.
import { describe, expect, it } from 'vitest';
import { stoppedByWalk } from '../../src/core/abort.js';
import { mentionsSecret } from '../../src/core/redact.js';
import { describeStatus } from '../../src/core/status-message.js';
import { BadRequestError, InternalServerError, NotFoundError, TimeoutError } from '../../src/index.js';
import * as attributes from '../../src/telemetry/attributes.js';
import { TEST_KEY } from '../support.js';

/** The parts of the first load the telemetry's loader hands over, as the client's loader does. */
const parts = { stoppedByWalk, mentionsSecret, describeStatus };
const errorType = (error: unknown, secret: string | null) => attributes.errorType(error, secret, parts);
const statusMessage = (error: unknown, secret: string | null) =>
  attributes.statusMessage(error, secret, parts);

const named = (name: string, message = 'x') => Object.assign(new Error(message), { name });

describe('statusMessage', () => {
  it('an API error: its class, status and label, none of the message', () => {
    const body = { message: `bad key ${TEST_KEY}` };
    expect(statusMessage(new NotFoundError(404, new Headers(), body), TEST_KEY)).toBe(
      'NotFoundError: 404 Not Found',
    );
    expect(statusMessage(new BadRequestError(400, new Headers(), body), TEST_KEY)).toBe(
      'BadRequestError: 400 Bad Request',
    );
    expect(statusMessage(new InternalServerError(599, new Headers(), body), TEST_KEY)).toBe(
      'InternalServerError: 599 Server Error',
    );
  });

  it('any other error: its class alone', () => {
    expect(statusMessage(new TimeoutError(`GET /papers?q=${TEST_KEY} timed out`), TEST_KEY)).toBe(
      'TimeoutError',
    );
    expect(statusMessage(Object.assign(new Error('x'), { status: 'no' }), TEST_KEY)).toBe('Error');
    expect(statusMessage(Object.assign(new Error('x'), { status: 99_999 }), TEST_KEY)).toBe('Error');
    expect(statusMessage('thrown text', TEST_KEY)).toBe('_OTHER');
  });
});

describe('errorType', () => {
  it('a class name as it is; a name that is text, or holds the key, as `Error`', () => {
    expect(errorType(new TypeError('x'), TEST_KEY)).toBe('TypeError');
    expect(errorType(named('RedisError'), TEST_KEY)).toBe('RedisError');
    expect(errorType(named(`refused ${TEST_KEY}`), TEST_KEY)).toBe('Error');
    expect(errorType(named(TEST_KEY), TEST_KEY)).toBe('Error');
    expect(errorType(named('x'.repeat(65)), TEST_KEY)).toBe('Error');
    expect(errorType(named('Bad\u001b[2JName'), null)).toBe('Error');
    expect(errorType(42, TEST_KEY)).toBe('_OTHER');
  });
});
