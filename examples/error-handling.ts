/**
 * Error handling: every error the SDK throws is a MetricError, and its class says why. The mock's
 * fault injection produces each failure on demand, as you would in your own resilience tests.
 *
 *   npx node examples/error-handling.ts      (after `npm run build`; starts its own mock)
 */
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InternalServerError,
  InvalidParameterError,
  MetricClient,
  MetricError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  TimeoutError,
} from 'scholarly-metrics';
import {
  MOCK_API_KEY,
  MOCK_NO_ACCESS_API_KEY,
  mockControl,
  startMockServer,
} from 'scholarly-metrics/testing';

// With METRIC_BASE_URL set (a mock with control endpoints, as `npx scholarly-metrics-mock -- …` starts),
// the client reads it and METRIC_API_KEY. Without it, a mock of its own, with the mock's key (a real
// key you have exported is not sent to it).
const ownMock = process.env.METRIC_BASE_URL ? undefined : await startMockServer({ control: true });
const client = new MetricClient(ownMock ? { apiKey: MOCK_API_KEY, baseUrl: ownMock.url } : {});
const { baseUrl } = client;
const control = mockControl(baseUrl); // queues faults on the mock server

/** Runs one call and prints which error class it failed with. */
async function attempt(label: string, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
    console.log(`${label.padEnd(44)} ok`);
  } catch (error) {
    // Most specific first: TimeoutError extends ConnectionError; the HTTP ones extend APIError.
    if (error instanceof RateLimitError) {
      console.log(`${label.padEnd(44)} ${error.name}, retry after ${error.retryAfter ?? '?'} s`);
    } else if (error instanceof TimeoutError || error instanceof ConnectionError) {
      console.log(`${label.padEnd(44)} ${error.name}`);
    } else if (
      error instanceof NotFoundError ||
      error instanceof BadRequestError ||
      error instanceof AuthenticationError ||
      error instanceof PermissionDeniedError ||
      error instanceof InternalServerError
    ) {
      console.log(`${label.padEnd(44)} ${error.name} (${error.status}): ${error.message}`);
    } else if (error instanceof ResponseValidationError || error instanceof InvalidParameterError) {
      console.log(`${label.padEnd(44)} ${error.name}: ${error.message.split('\n')[0]}`);
    } else if (error instanceof MetricError) {
      console.log(`${label.padEnd(44)} ${error.name}: ${error.message}`);
    } else {
      throw error; // not from the SDK: a bug here
    }
  }
}

try {
  await attempt('unknown journal', () => client.journals.get(999_999));
  await attempt('unsupported sort value', () => client.papers.search({ sort: 'popularity' }));
  await attempt('refused before sending: an id read from bad input', () =>
    client.journals.get(Number('42a')),
  );
  await attempt('wrong API key', () => new MetricClient({ apiKey: 'sm_wrong', baseUrl }).subjects.list());
  await attempt('plan without API access', () =>
    new MetricClient({ apiKey: MOCK_NO_ACCESS_API_KEY, baseUrl }).subjects.list(),
  );

  // Retried for you: 5xx, 429 and dropped connections, up to maxRetries (default 2), honouring Retry-After.
  await control.fault({ status: 503, headers: { 'retry-after': '0' }, times: 2 });
  await attempt('two 503s, then success (retried)', () => client.subjects.list());
  await control.fault({ status: 500 });
  await attempt('a 500 with retries off', () => client.subjects.list({ maxRetries: 0 }));
  await control.fault({ status: 429, headers: { 'retry-after': '120' } });
  await attempt('429 asking for 2 minutes', () => client.subjects.list());
  await control.fault({ reset: true });
  await attempt('connection dropped, retries off', () => client.subjects.list({ maxRetries: 0 }));
  await control.fault({ delayMs: 5_000 });
  await attempt('answer slower than the timeout', () =>
    client.subjects.list({ timeout: 1_000, maxRetries: 0 }),
  );
  await control.fault({ malformed: true });
  await attempt('a 200 whose body is cut short', () => client.journals.get(1, { maxRetries: 0 }));
} finally {
  await control.reset();
  await ownMock?.close();
}
