import { INVALID } from '../schemas/invalid.js';
import { ResponseValidationError, type ValidationIssue } from './errors.js';
import { summarizeIssues } from './issues.js';
import { redactText, redactValue } from './redact.js';

/**
 * A response shape. `parse` is the parser zod's compiler generated from the shape's zod schema at
 * build time (scripts/generate-parsers.ts): it accepts exactly what the schema accepts, at close to
 * `JSON.parse` speed, without shipping zod's compiler or needing `new Function`. `explain` asks zod
 * itself why a body was refused; it is loaded on the first refusal only, so the common path (and a
 * browser page's first load) never carries zod.
 */
export interface ResponseShape<T> {
  readonly name: string;
  readonly parse: (input: unknown) => T | typeof INVALID;
  readonly explain: (value: unknown) => Promise<ValidationIssue[]>;
}

/** Parses and validates a 2xx body. `secret` is kept out of the error, should the body echo it. */
export async function parseResponse<T>(
  shape: ResponseShape<T>,
  text: string,
  secret: string | null,
): Promise<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const what = text.trim() === '' ? 'an empty body' : 'a body that is not JSON';
    throw refusal(
      `Expected ${shape.name} as JSON, got ${what}`,
      [{ path: [], message: 'not JSON' }],
      text,
      secret,
    );
  }
  const out = shape.parse(value);
  if (out !== INVALID) return out;
  // Explained on a copy without the secret: a message quotes (and cuts) values, and a cut secret
  // would no longer be recognised for redaction.
  const issues = await shape.explain(redactValue(value, secret));
  throw refusal(
    `The response does not match ${shape.name}: ${summarizeIssues(issues)}`,
    issues,
    text,
    secret,
  );
}

function refusal(message: string, issues: ValidationIssue[], text: string, secret: string | null) {
  return new ResponseValidationError(
    redactText(message, secret),
    issues.map((issue) => ({ ...issue, message: redactText(issue.message, secret) })),
    redactText(text, secret),
  );
}
