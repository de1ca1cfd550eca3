import { safeParse } from 'zod/mini';
import type { ValidationIssue } from '../core/errors.js';
import { toValidationIssues } from '../core/zod-issues.js';
import { responseSchemas } from './response-schemas.js';

/**
 * Why zod refuses `value` as the named response. Loaded on the first refused body only, so that zod
 * stays out of the common path (and out of a browser page's first load).
 */
export function explain(name: keyof typeof responseSchemas, value: unknown): ValidationIssue[] {
  const result = safeParse(responseSchemas[name], value, { reportInput: true });
  return result.success
    ? [{ path: [], message: 'refused by the generated parser but accepted by zod (please report this)' }]
    : toValidationIssues(result.error.issues);
}
