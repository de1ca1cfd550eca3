import { SHOW_VALUES } from '../api/params.js';

/**
 * Base URL the msw handlers answer by default. The `.test` top-level domain is reserved, so no real
 * request can ever leave for it.
 *
 * @example
 * ```ts
 * const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: MOCK_BASE_URL, fetch: createMockApi().fetch });
 * ```
 */
export const MOCK_BASE_URL = 'https://api.scholarly-metrics.test/api/v1';

/**
 * A key on the Professional plan, which includes API access.
 *
 * @example
 * ```ts
 * new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: server.url });
 * ```
 */
export const MOCK_API_KEY = 'sm_mock_professional_0123456789abcdef';

/**
 * A key on the Elite plan, which includes API access.
 *
 * @example
 * ```ts
 * new MetricClient({ apiKey: MOCK_ELITE_API_KEY, baseUrl: server.url });
 * ```
 */
export const MOCK_ELITE_API_KEY = 'sm_mock_elite_0123456789abcdef';

/**
 * A valid key on the Basic plan, which has no API access: every request gives 403.
 *
 * @example
 * ```ts
 * await expect(clientWith(MOCK_NO_ACCESS_API_KEY).subjects.list()).rejects.toThrow(PermissionDeniedError);
 * ```
 */
export const MOCK_NO_ACCESS_API_KEY = 'sm_mock_basic_0123456789abcdef';

/**
 * The plans a key can be on. Only `professional` and `elite` include API access (API §5).
 *
 * @example
 * ```ts
 * const api = createMockApi({ keys: { 'my-test-key': 'elite' } });
 * ```
 */
export type MockPlan = 'free' | 'basic' | 'professional' | 'elite';

/**
 * The keys every mock accepts; its `keys` option adds more (or gives one of these another plan).
 *
 * @example
 * ```ts
 * Object.entries(MOCK_KEYS); // [['sm_mock_professional_…', 'professional'], …]
 * ```
 */
export const MOCK_KEYS: Readonly<Record<string, MockPlan>> = Object.freeze({
  [MOCK_API_KEY]: 'professional',
  [MOCK_ELITE_API_KEY]: 'elite',
  [MOCK_NO_ACCESS_API_KEY]: 'basic',
});

/**
 * DOIs the dataset always contains (papers 1 to 4), each awkward in a different way: a slash
 * inside the suffix, SICI punctuation, non-ASCII letters, and URL metacharacters.
 *
 * @example
 * ```ts
 * for (const doi of MOCK_DOIS) expect((await client.papers.get(doi)).doi).toBe(doi);
 * ```
 */
// A tuple, so that `MOCK_DOIS[0]` is a `string` under `noUncheckedIndexedAccess`.
export const MOCK_DOIS: readonly [string, string, string, string] = Object.freeze([
  '10.1000/abc/def',
  '10.1002/(SICI)1097-4636(199709)36:4<517::AID-JBM10>3.0.CO;2-K',
  '10.5555/üñí-ç',
  '10.1000/a?b#c%d&e=f',
]);

/**
 * The seed used when none is given.
 *
 * @example
 * ```ts
 * createMockApi({ seed: MOCK_DEFAULT_SEED }); // same as createMockApi()
 * ```
 */
export const MOCK_DEFAULT_SEED = 42;

/**
 * Accepted values of `show` on `GET /countries` (default `active`: countries with at least one
 * journal), the API's own.
 *
 * @example
 * ```ts
 * for (const show of MOCK_SHOW_VALUES) await client.countries.list({ show });
 * ```
 */
export const MOCK_SHOW_VALUES = SHOW_VALUES;
