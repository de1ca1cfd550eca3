// A mock server that also records the highest number of requests it was answering at once, to check
// a concurrency limit held across processes. It wraps the mock's `handle`, leaving the mock untouched.
import {
  createMockApi,
  type MockApiOptions,
  type MockServer,
  startMockServer,
} from '../../src/testing/index.js';

export interface InFlightMockServer extends MockServer {
  /** The most requests in flight at once so far. */
  readonly highestInFlight: number;
  /** When each request arrived (`performance.now()`), in order. */
  readonly arrivals: readonly number[];
  /** How many answers had each status. */
  statusCount(status: number): number;
}

export async function startInFlightMockServer(options: MockApiOptions): Promise<InFlightMockServer> {
  const api = createMockApi(options);
  let inFlight = 0;
  let highest = 0;
  const arrivals: number[] = [];
  const counting = Object.create(api) as typeof api;
  Object.defineProperty(counting, 'handle', {
    value: async (request: Request) => {
      arrivals.push(performance.now());
      highest = Math.max(highest, ++inFlight);
      try {
        return await api.handle(request);
      } finally {
        inFlight--;
      }
    },
  });
  const server = await startMockServer({ api: counting });
  return {
    ...server,
    arrivals,
    get highestInFlight() {
      return highest;
    },
    statusCount: (status) => api.requests.filter((r) => r.status === status).length,
  };
}
