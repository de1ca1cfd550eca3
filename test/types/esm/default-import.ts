// The default export, and top-level await (ES modules only).
import MetricClient, { NotFoundError } from 'scholarly-metrics';
import { createMockApi, MOCK_API_KEY, MOCK_BASE_URL } from 'scholarly-metrics/testing';

const client = new MetricClient({
  apiKey: MOCK_API_KEY,
  baseUrl: MOCK_BASE_URL,
  fetch: createMockApi().fetch,
});
const journal = await client.journals.get(42).catch((error: unknown) => {
  if (error instanceof NotFoundError) return undefined;
  throw error;
});
console.log(journal?.name);
