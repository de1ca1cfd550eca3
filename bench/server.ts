/**
 * The API for the benchmarks, in its own process (see startServer in lib.ts): the mock API from
 * dist/testing.js over real loopback HTTP, or, for the million-item walk, a server that makes pages
 * up as they are asked for (the mock holds its dataset in memory; a million papers would be the
 * mock's memory, not the client's, and slow to generate).
 *
 * It counts the API requests it receives (as they arrive, before any delay, so a request the client
 * gives up on mid-delay still counts): the parent asks with an IPC message `{ count: true }`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadTesting, type ServerConfig } from './lib.js';

const config = JSON.parse(process.argv[2] ?? '{"kind":"mock"}') as ServerConfig;

let received = 0;

async function listen(): Promise<string> {
  if (config.kind === 'mock') {
    const { createMockApi, startMockServer } = await loadTesting();
    const api = createMockApi(config.options);
    const handle = api.handle.bind(api);
    api.handle = (request) => {
      received++;
      return handle(request);
    };
    const server = await startMockServer({ port: 0, api });
    return server.url;
  }
  return synthesize(config.total);
}

/**
 * `GET /api/v1/journals/1/papers?page=&per_page=` over `total` papers that exist only as numbers: the
 * same wire shape as the mock's journal papers, built per request.
 */
function synthesize(total: number): Promise<string> {
  const server = createServer((req, res) => {
    received++;
    const url = new URL(req.url ?? '/', 'http://localhost');
    const page = Number(url.searchParams.get('page') ?? 1);
    const perPage = Number(url.searchParams.get('per_page') ?? 20);
    const first = (page - 1) * perPage + 1;
    const last = Math.min(total, page * perPage);
    const data = [];
    for (let id = first; id <= last; id++) {
      data.push({
        id,
        title: `Paper ${id}`,
        authors: 'A. Author, B. Author',
        year: 2000 + (id % 25),
        citations: id % 997,
      });
    }
    const body = JSON.stringify({ data, total });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`);
    });
  });
}

const url = await listen();
process.send?.({ url });
process.on('message', (message: { count?: boolean }) => {
  if (message.count) process.send?.({ received });
});
// The parent going away ends this process, whatever state it left it in.
process.on('disconnect', () => process.exit(0));
