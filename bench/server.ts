// The API in a process of its own (lib's withServer): the mock, or for the big walks pages made up as they are
// asked for (a million papers held in the mock would weigh on the walk). It counts requests as they arrive.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadTesting, type ServerConfig } from './lib.js';

const config = JSON.parse(process.argv[2] ?? '{"kind":"mock"}') as ServerConfig;
let received = 0;

async function listen(): Promise<string> {
  if (config.kind === 'synth') return synthesize(config.total);
  const { createMockApi, startMockServer } = await loadTesting();
  const api = createMockApi(config.options);
  const handle = api.handle.bind(api);
  api.handle = (request) => {
    received++;
    return handle(request);
  };
  return (await startMockServer({ port: 0, api })).url;
}

/** `GET /api/v1/journals/1/papers?page=&per_page=` over `total` papers, the mock's wire shape, built per request. */
function synthesize(total: number): Promise<string> {
  const server = createServer((req, res) => {
    received++;
    const url = new URL(req.url ?? '/', 'http://localhost');
    const page = Number(url.searchParams.get('page') ?? 1);
    const perPage = Number(url.searchParams.get('per_page') ?? 20);
    const data = [];
    for (let id = (page - 1) * perPage + 1; id <= Math.min(total, page * perPage); id++) {
      const title = `Paper ${id}`;
      data.push({ id, title, authors: 'A. Author, B. Author', year: 2000 + (id % 25), citations: id % 997 });
    }
    const body = JSON.stringify({ data, total });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(url())));
}

process.send?.({ url: await listen() });
process.on('message', (message: { count?: boolean }) => {
  if (message.count) process.send?.({ received });
});
// The parent going away ends this process, whatever state it left it in.
process.on('disconnect', () => process.exit(0));
