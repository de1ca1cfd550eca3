import * as z from 'zod/mini';
import { INVALID } from '../schemas/invalid.js';
import { ResponseValidationError } from './errors.js';
import { summarizeIssues, toValidationIssues } from './issues.js';
import { redactText } from './redact.js';

/**
 * A response shape: the zod schema that defines it, and the parser generated from that schema
 * (scripts/generate-parsers.ts). The generated one answers the common case at close to the speed
 * of `JSON.parse`; on anything it rejects, zod itself decides and explains.
 */
export interface ResponseShape<T> {
  readonly name: string;
  readonly schema: z.ZodMiniType<T>;
  readonly fast?: ((input: unknown) => unknown) | undefined;
}

/** Parses and validates a 2xx body. `secret` is kept out of the error, should the body echo it. */
export function parseResponse<T>(shape: ResponseShape<T>, text: string, secret: string | null = null): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const what = text.trim() === '' ? 'an empty body' : 'a body that is not JSON';
    throw new ResponseValidationError(
      `Expected ${shape.name} as JSON, got ${what}`,
      [{ path: [], message: 'not JSON' }],
      redactText(text, secret),
    );
  }
  if (shape.fast) {
    const out = shape.fast(value);
    if (out !== INVALID) return out as T;
  }
  const result = z.safeParse(shape.schema, value, { reportInput: true });
  if (result.success) return result.data;
  const issues = toValidationIssues(result.error.issues);
  throw new ResponseValidationError(
    redactText(`The response does not match ${shape.name}: ${summarizeIssues(issues)}`, secret),
    issues.map((issue) => ({ ...issue, message: redactText(issue.message, secret) })),
    redactText(text, secret),
  );
}
