// What the pagination tests share: papers served a page at a time, by an honest server or a quirky one.
import { delay, http } from 'msw';
import type { SetupServer } from 'msw/node';
import { BASE, json } from '../support.js';

export const paper = (id: number) => ({
  id,
  title: `Paper ${id}`,
  authors: 'A. Author',
  year: 2020,
  citations: id,
});

/** The `journalPapers` of one test file, serving on that file's msw `server`. */
export function journalPapersOn(server: SetupServer) {
  /** Serves `/journals/1/papers` from `pageBody(page, perPage)`, recording the pages asked for. */
  function journalPapers(
    pageBody: (page: number, perPage: number) => { data: unknown[]; total: number },
    latencyMs = 0,
  ) {
    const asked: number[] = [];
    server.use(
      http.get(`${BASE}/journals/1/papers`, async ({ request }) => {
        const url = new URL(request.url);
        const page = Number(url.searchParams.get('page') ?? 1);
        asked.push(page);
        if (latencyMs) await delay(latencyMs);
        return json(pageBody(page, Number(url.searchParams.get('per_page') ?? 10)));
      }),
    );
    return asked;
  }
  return journalPapers;
}

/** An honest server with `total` items. */
export const honest = (total: number) => (page: number, perPage: number) => {
  const start = (page - 1) * perPage;
  const data = [];
  for (let id = start + 1; id <= Math.min(start + perPage, total); id++) data.push(paper(id));
  return { data, total };
};

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
