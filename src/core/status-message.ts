// The message of an APIError: built from the status and the body the server sent, which may be
// anything, so it is flattened, escaped and cut short before it reaches a log or a terminal.
import { cut, escapeUnsafe } from './escape.js';

/** Labels of the statuses the API document lists, used in messages. */
const statusLabels: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Rate Limited',
  500: 'Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** `"404 Not Found: no journal 7"`: the status, its label, and what the body says, briefly. */
export function describeStatus(status: number, body: unknown): string {
  const label = statusLabels[status] ?? (status >= 500 && status < 600 ? 'Server Error' : 'Error');
  const detail = summarizeBody(body, label);
  return detail ? `${status} ${label}: ${detail}` : `${status} ${label}`;
}

const maxDetailLength = 200;

function summarizeBody(body: unknown, label: string): string {
  const text = typeof body === 'string' ? body : (serverExplanation(body, label) ?? '');
  // Server text: escaped, so that no control sequence or bidirectional override acts on a terminal.
  const flat = escapeUnsafe(text.replace(/\s+/g, ' ').trim());
  return cut(flat, maxDetailLength);
}

/**
 * The first explanation among the places common error bodies put one: `{"error": {"message"}}`,
 * `{"error": "…"}`, `{"message"}`, `{"detail"}` (or the first of its list), `{"title"}`. A string
 * that only names the error (a code such as `not_found`, or the status label again) is taken only
 * when no later place explains more: `{"error": "not_found", "message": "No journal with id 7"}`
 * says the message.
 */
function serverExplanation(body: unknown, label: string): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const nested = record.error !== null && typeof record.error === 'object' ? record.error : undefined;
  const strings = [
    (nested as Record<string, unknown> | undefined)?.message,
    record.error,
    record.message,
    // FastAPI's refusals list their issues: `{"detail": [{"loc": […], "msg": "…"}]}`.
    Array.isArray(record.detail) ? record.detail[0]?.msg : record.detail,
    record.title,
  ].filter((candidate): candidate is string => typeof candidate === 'string');
  const namesOnly = (text: string) =>
    /^[\w.-]*$/.test(text.trim()) || text.trim().toLowerCase() === label.toLowerCase();
  return strings.find((text) => !namesOnly(text)) ?? strings[0];
}
