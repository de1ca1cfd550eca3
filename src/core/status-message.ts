// The message of an APIError: built from the status and the body the server sent, which may be
// anything, so it is flattened, escaped and cut short before it reaches a log or a terminal.
import { escapeUnsafe } from './escape.js';

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
  const label = statusLabels[status] ?? (status >= 500 ? 'Server Error' : 'Error');
  const detail = summarizeBody(body);
  return detail ? `${status} ${label}: ${detail}` : `${status} ${label}`;
}

const maxDetailLength = 200;

function summarizeBody(body: unknown): string {
  let text = '';
  if (typeof body === 'string') text = body;
  else if (body !== null && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    const nested = record.error as Record<string, unknown> | undefined;
    const candidate = record.message ?? record.error ?? record.detail ?? nested?.message;
    if (typeof candidate === 'string') text = candidate;
  }
  // Server text: escaped, so that no control sequence or bidirectional override acts on a terminal.
  text = escapeUnsafe(text.replace(/\s+/g, ' ').trim());
  return text.length > maxDetailLength ? `${text.slice(0, maxDetailLength)}…` : text;
}
