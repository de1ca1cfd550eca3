// The mock API, with msw not installed: its declarations must not need msw.
import { MetricClient } from 'scholarly-metrics';
import {
  createMockApi,
  MOCK_API_KEY,
  MOCK_BASE_URL,
  MOCK_DOIS,
  type MockApiOptions,
  type MockServerOptions,
  mockHandlers,
  startMockServer,
} from 'scholarly-metrics/testing';

declare const seed: number | undefined;

export async function mock(): Promise<void> {
  const options: MockApiOptions = { seed, sizes: { papers: undefined }, faults: undefined };
  const api = createMockApi(options);
  const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: MOCK_BASE_URL, fetch: api.fetch });
  const doi: string = MOCK_DOIS[0];
  console.log((await client.papers.get(doi)).title);
  const serverOptions: MockServerOptions = { port: 0, host: undefined };
  const server = await startMockServer(serverOptions);
  await server.close();
  const handlers = mockHandlers(api);
  for (const handler of handlers) {
    // @ts-expect-error: the handlers are opaque unless msw's type is named (mockHandlers<HttpHandler>())
    console.log(handler.info);
  }
}
