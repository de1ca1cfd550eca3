/**
 * The built-in mock of `--mock`, through `scholarly-metrics/testing` alone, and in a module of its
 * own, imported only by a run with `--mock` (importing the entry itself would load all of it, msw's
 * handlers included).
 */
export { createMockApi, MOCK_API_KEY, MOCK_BASE_URL } from '../testing/index.js';
