// Bounds on what a server (or a webhook sender) can make the SDK do, and the mock's own limits.
import { MetricClient, type MetricError, ResponseTooLargeError } from 'scholarly-metrics';
import {
  createMockApi,
  MOCK_MAX_DELAY_MS,
  MOCK_MAX_SIZES,
  type MockServerOptions,
  startMockServer,
} from 'scholarly-metrics/testing';
import {
  createNodeWebhookHandler,
  createWebhookHandler,
  type WebhookHandlerOptions,
} from 'scholarly-metrics/webhooks';

declare const fromConfig: number | undefined;

export async function responses(): Promise<number> {
  const client = new MetricClient({
    apiKey: 'k',
    baseUrl: 'https://x.example/api/v1',
    maxResponseBytes: 8 * 1024 * 1024,
  });
  const lenient = client.withOptions({ maxResponseBytes: fromConfig });
  try {
    const page = await lenient.papers.search({ q: 'graphene' }, { maxResponseBytes: 64 * 1024 * 1024 });
    const journal = await client.journals.get(42, { maxResponseBytes: fromConfig });
    return page.total + journal.id;
  } catch (error) {
    if (error instanceof ResponseTooLargeError) {
      const limit: number = error.limit;
      const name: 'ResponseTooLargeError' = error.name;
      const base: MetricError = error;
      return limit + name.length + base.message.length;
    }
    throw error;
  }
}

export function receivers(): unknown[] {
  const options: WebhookHandlerOptions = { bodyTimeoutMs: 5_000, maxBodyBytes: 16_384 };
  const fromEnv: WebhookHandlerOptions = { bodyTimeoutMs: fromConfig };
  return [
    createWebhookHandler((event) => console.log(event.new_score), options),
    createNodeWebhookHandler((event) => console.log(event.quartile), fromEnv),
    createNodeWebhookHandler(() => undefined, { bodyTimeoutMs: 1_000, onError: console.error }),
  ];
}

export async function mockLimits(): Promise<string> {
  const delay: number = MOCK_MAX_DELAY_MS;
  const papers: number = MOCK_MAX_SIZES.papers;
  const api = createMockApi({ sizes: { journals: MOCK_MAX_SIZES.journals } });
  api.faults.next({ delayMs: delay });
  const options: MockServerOptions = { api, controlOrigins: ['http://localhost:5173'] };
  const server = await startMockServer(options);
  await server.close();
  const everyPage = await startMockServer({ controlOrigins: ['*'], port: undefined });
  await everyPage.close();
  return `${papers} ${server.url}`;
}

export function wrong(client: MetricClient): unknown[] {
  // @ts-expect-error: the sizes are read-only
  MOCK_MAX_SIZES.papers = 5;
  return [
    // @ts-expect-error: a number of bytes, not a size string
    new MetricClient({ apiKey: 'k', baseUrl: 'https://x.example/api/v1', maxResponseBytes: '8mb' }),
    // @ts-expect-error: per call too
    client.subjects.list({ maxResponseBytes: '8mb' }),
    // @ts-expect-error: milliseconds, a number
    createWebhookHandler(() => undefined, { bodyTimeoutMs: '5s' }),
    // @ts-expect-error: the option is bodyTimeoutMs
    createNodeWebhookHandler(() => undefined, { bodyTimeout: 5_000 }),
    // @ts-expect-error: origins are a list
    startMockServer({ controlOrigins: 'http://localhost:5173' }),
  ];
}
