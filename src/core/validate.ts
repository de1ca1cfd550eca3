import { maxBodyDepth, pathTooDeep } from './depth.js';
import { MetricError, ResponseValidationError, type ValidationIssue } from './errors.js';
import { summarizeIssues } from './issues.js';
import { INVALID } from './parser-sentinel.js';
import { redactText, redactValue, type Secret } from './redact.js';
import type { ZodVerdict } from './zod-check.js';

/**
 * What a response is checked against and how to name it in a message. The build-time parser answers
 * first; zod's schema, loaded only when the parser leaves a body to it, decides and explains the rest.
 * The schemas live in src/schemas; the core only needs their `safeParse`.
 */
export interface ResponseShape<T> {
  /** How messages name the response: "a journal profile". */
  readonly label: string;
  /** The body's output, or zod's `INVALID` where zod's runtime must decide. */
  readonly parse: (value: unknown) => T | typeof INVALID;
  /**
   * zod's check (src/core/zod-check.ts) with the schema and the English for its issues, loaded
   * together; `hide` takes the secret out of the copy it explains.
   */
  readonly zod: () => Promise<(value: unknown, hide?: (value: unknown) => unknown) => ZodVerdict<T>>;
}

/** Parses and validates a 2xx body. `secret` is kept out of the error, should the body echo it. */
export async function parseResponse<T>(shape: ResponseShape<T>, text: string, secret: Secret): Promise<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const what = text.trim() === '' ? 'an empty body' : 'a body that is not JSON';
    throw refusal(
      `Expected ${shape.label} as JSON, got ${what}`,
      [{ path: [], message: 'not JSON' }],
      text,
      secret,
    );
  }
  if (pathTooDeep(value) !== undefined) {
    throw refusal(
      `Expected ${shape.label}, got a body nested more than ${maxBodyDepth} levels deep`,
      [{ path: [], message: `nested more than ${maxBodyDepth} levels deep` }],
      text,
      secret,
    );
  }
  try {
    return await check(shape, value, text, secret);
  } catch (error) {
    // Its own refusal, or zod's runtime that could not be loaded (a ConnectionError, retried).
    if (error instanceof MetricError) throw error;
    // A body shaped to exhaust the stack (nesting thousands deep) is refused like any other bad body,
    // never surfaced as a bare RangeError or mistaken for a connection failure and retried.
    throw refusal(
      `The response could not be checked as ${shape.label}: it is nested too deeply or too large`,
      [{ path: [], message: 'too deeply nested or too large to check' }],
      text,
      secret,
    );
  }
}

async function check<T>(shape: ResponseShape<T>, value: unknown, text: string, secret: Secret): Promise<T> {
  const parsed = shape.parse(value);
  if (parsed !== INVALID) return parsed as T;
  const check = await shape.zod();
  const verdict = check(value, secret ? (copy) => redactValue(copy, secret) : undefined);
  if ('data' in verdict) return verdict.data;
  throw refusal(
    `The response does not match ${shape.label}: ${summarizeIssues(verdict.issues)}`,
    verdict.issues,
    text,
    secret,
  );
}

function refusal(message: string, issues: ValidationIssue[], text: string, secret: Secret) {
  return new ResponseValidationError(
    redactText(message, secret),
    issues.map((issue) => ({ ...issue, message: redactText(issue.message, secret) })),
    redactText(text, secret),
  );
}
