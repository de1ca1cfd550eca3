// What the hooks tests share: a list of subjects, and a catch-all that records every request sent.
import { http } from 'msw';
import type { SetupServer } from 'msw/node';
import { json } from '../support.js';

export const subjects = [
  { id: 1, name: 'Physics', slug: 'physics', journals: 3, papers: 40, citations: 900 },
];
export const ok = () => json(subjects);

/** The `everything` of one test file, catching every request on that file's msw `server`. */
export function everythingOn(server: SetupServer) {
  /** Every request that reaches msw, whatever its path: proof of what was (not) sent. */
  function everything(reply: () => Response = ok) {
    const seen: Request[] = [];
    server.use(
      http.all('*', ({ request }) => {
        seen.push(request);
        return reply();
      }),
    );
    return seen;
  }
  return everything;
}
