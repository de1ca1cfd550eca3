// What the redaction tests share: the views of an error that must never hold the key.
import util from 'node:util';
import { expect } from 'vitest';
import { redactHeaders, redactText } from '../../src/core/redact.js';
import * as redactCauseModule from '../../src/core/redact-cause.js';
import { TEST_KEY } from '../support.js';

/** The walk with the redactor its loader (clean-cause.ts) hands over. */
export const redactCause = (error: unknown, secret: string | null) =>
  redactCauseModule.redactCause(error, secret, { redactText, redactHeaders });

export const inspect = (value: unknown) => util.inspect(value, { depth: 10, showHidden: true });

/** Every way an error is shown or serialized; none may contain the key. */
export function views(error: unknown): Record<string, string> {
  const e = error as Error & { body?: unknown; headers?: Headers; issues?: unknown };
  return {
    message: e.message,
    string: String(e),
    json: JSON.stringify(e),
    inspect: inspect(e),
    stack: e.stack ?? '',
    body: typeof e.body === 'string' ? e.body : JSON.stringify(e.body ?? null),
    headers: e.headers ? JSON.stringify([...e.headers]) : '',
    issues: JSON.stringify(e.issues ?? null),
    cause: inspect(e.cause),
  };
}

export function expectNoKey(error: unknown, key = TEST_KEY) {
  for (const [view, text] of Object.entries(views(error))) {
    expect({ view, leaks: text.includes(key) }).toEqual({ view, leaks: false });
  }
}
