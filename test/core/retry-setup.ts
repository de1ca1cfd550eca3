// What the retry tests share: a list of subjects, and the replies that fail it or serve it.
import { json } from '../support.js';

export const subjects = [
  { id: 1, name: 'Physics', slug: 'physics', journals: 3, papers: 40, citations: 900 },
];
/** `Retry-After: 0` keeps retry tests fast while still going through the retry path. */
export const fail = (status: number) => () =>
  json({ message: 'nope' }, { status, headers: { 'retry-after': '0' } });
export const ok = () => json(subjects);
