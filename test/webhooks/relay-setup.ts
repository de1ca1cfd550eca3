// What the relay tests share: a GET of its stream, the events they publish, and the greeting.
import { validEvent } from './fixtures.js';

export const url = 'http://localhost/events';
export const get = (headers?: HeadersInit, signal?: AbortSignal) => new Request(url, { headers, signal });
export const scored = (journal_id: number) => ({ ...validEvent, journal_id });
// A new stream's greeting: a comment, and the id of the relay's latest event (`.0` before the first).
export const greeting = /^: connected\nid: [0-9a-z]+\.\d+$/;
