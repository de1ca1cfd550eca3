import {
  createMockApi,
  MOCK_API_KEY,
  MOCK_BASE_URL,
  type MockApi,
  type MockApiOptions,
} from '../../src/testing/index.js';

/** A small dataset: most tests need the rules, not the volume. */
export const smallSizes = { journals: 30, papers: 1_500, authors: 200, subjects: 8, countries: 20 } as const;

export function smallApi(options: MockApiOptions = {}): MockApi {
  return createMockApi({ sizes: smallSizes, ...options });
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** GET `path` (relative to the base URL) through the core, with the Professional key unless told. */
export async function get(api: MockApi, path: string, key: string | null = MOCK_API_KEY): Promise<Answer> {
  const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
  const response = await api.handle(new Request(`${MOCK_BASE_URL}${path}`, { headers }));
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** The body of a 200, typed loosely for assertions. */
export async function ok<T = Record<string, unknown>>(api: MockApi, path: string): Promise<T> {
  const answer = await get(api, path);
  if (answer.status !== 200) throw new Error(`GET ${path} gave ${answer.status}: ${answer.text}`);
  return answer.body as T;
}

export interface Page<T> {
  data: T[];
  total: number;
}
