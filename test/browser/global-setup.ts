// Node side of the browser tests: starts the mock API as real HTTP servers on loopback and hands
// their URLs (and its keys) to the page through `provide`/`inject`. The page, served by Vitest from
// another origin, reaches them cross-origin: every request goes through CORS, preflights included.
import { MOCK_API_KEY, MOCK_DOIS, MOCK_NO_ACCESS_API_KEY, startMockServer } from 'scholarly-metrics/testing';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A mock nobody faults: for lookups, walks and the errors the API itself gives. */
    mockUrl: string;
    /** A mock with the `/__mock/` control endpoints, for faults and score updates. */
    controlUrl: string;
    /** A key with API access. */
    apiKey: string;
    /** A valid key on a plan without API access (403). */
    noAccessKey: string;
    /** DOIs the mock serves, awkward characters included. */
    dois: readonly string[];
  }
}

export default async function setup(project: TestProject) {
  const plain = await startMockServer({ port: 0 });
  // The page's origin (Vitest's server) is not known here: its port moves when the default is taken.
  const controlled = await startMockServer({ port: 0, control: true, controlOrigins: ['*'] });
  project.provide('mockUrl', plain.url);
  project.provide('controlUrl', controlled.url);
  project.provide('apiKey', MOCK_API_KEY);
  project.provide('noAccessKey', MOCK_NO_ACCESS_API_KEY);
  project.provide('dois', [...MOCK_DOIS]);
  return async () => {
    await Promise.all([plain.close(), controlled.close()]);
  };
}
