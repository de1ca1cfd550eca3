import type { ValidationIssue } from './errors.js';

/** The parts of a zod issue that make a readable sentence (zod/mini ships no English messages). */
interface RawIssue {
  readonly code?: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly expected?: string;
  readonly format?: string;
  readonly input?: unknown;
  readonly minimum?: unknown;
  readonly values?: readonly unknown[];
}

/** `"data.3.year"`, or `(root)` for the value itself. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(root)' : path.map(String).join('.');
}

/** A short, safe rendering of a received value: `string "7"`, `1.5`, `an object`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `string ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}

const typeNames: Record<string, string> = {
  int: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
};

function article(expected: string | undefined): string {
  return typeNames[expected ?? ''] ?? String(expected);
}

function explain(issue: RawIssue): string {
  const got = 'input' in issue ? `, got ${describeValue(issue.input)}` : '';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined && 'input' in issue) return 'required, missing';
      return `expected ${article(issue.expected)}${got}`;
    case 'invalid_format':
      return `expected ${issue.format} format${got}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}${got}`;
    case 'invalid_value':
      return `expected one of ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(', ')}${got}`;
    default:
      return issue.message + got;
  }
}

/** zod issues → `{ path, message }` with a sentence a person can act on. */
export function toValidationIssues(issues: readonly RawIssue[]): ValidationIssue[] {
  return issues.map((issue) => ({ path: issue.path, message: explain(issue) }));
}

/** `"3 problems: data.0.year: expected an integer, got 1.5; …"` (the first few). */
export function summarizeIssues(issues: readonly ValidationIssue[], shown = 3): string {
  const lines = issues.slice(0, shown).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  const more = issues.length > shown ? `; and ${issues.length - shown} more` : '';
  return `${lines.join('; ')}${more}`;
}
