import type { Reply } from './delivery.js';

/** A JSON answer: the receivers' and the relay's refusals alike. */
export function reply(status: number, body: object, headers?: Record<string, string>): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

/** 500 without details: what went wrong is for the receiver's logs (onError), not for the sender. */
export function serverError(): Reply {
  return reply(500, { error: 'internal_error', message: 'the webhook receiver failed' });
}

/** 400: a body that is no valid event, which resending would not help. */
export function invalid(message: string): Reply {
  return reply(400, { error: 'invalid_payload', message });
}
