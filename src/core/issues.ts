import { quote } from './describe-value.js';
import type { ValidationIssue } from './errors.js';

/**
 * One-line summaries of validation issues, shared by the client's validation errors and the webhook
 * parser. Turning zod's issues into sentences is zod-issues.ts, on the client's lazy path only.
 */

/** Beyond this many, a message stops being readable; the full list stays on `issues`. */
const maxIssuesInMessage = 5;

/**
 * One line for a list of issues, the first five with their paths:
 * `journal_id: expected an integer, got string "7"; timestamp: …; and 2 more`.
 */
export function summarizeIssues(issues: readonly ValidationIssue[]): string {
  const shown = issues
    .slice(0, maxIssuesInMessage)
    .map((issue) => `${formatPath(issue.path)}: ${issue.message}`)
    .join('; ');
  const hidden = issues.length - maxIssuesInMessage;
  return hidden > 0 ? `${shown}; and ${hidden} more` : shown;
}

/** `data[3].year`, `journal_id`, `["odd key"]`; `(root)` for the value itself. */
export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) text += text ? `.${key}` : key;
    else text += `[${quote(String(key))}]`;
  }
  return text;
}
