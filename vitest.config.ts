import { fileURLToPath } from 'node:url';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { isolated, sameOnEveryNode, WaitingFilesFirst } from './test/helpers/suite-plan.js';

const dist = (file: string) => fileURLToPath(new URL(`./dist/${file}`, import.meta.url));

/** What both Node projects share: every test under test/ but the browser's. */
const nodeSuite = {
  include: ['test/**/*.test.ts'],
  exclude: [
    'test/browser/**',
    'node_modules/**',
    // The Node 22 run (scripts/test-node22.mjs sets this variable) repeats only what Node can change.
    ...(process.env.SCHOLARLY_METRICS_EXPECT_NODE === '22' ? sameOnEveryNode : []),
  ],
  // Undoes what each test left behind (test/helpers/cleanup.ts).
  setupFiles: ['test/helpers/setup.ts'],
  // Guards against a hang, not a judge of speed: on a loaded 2-core machine, with coverage,
  // property tests (thousands of runs) and process starts took over 20 s and failed runs.
  testTimeout: 120_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    // Vitest runs one file at a time on 2 cores (its default: cores − 1). Many files wait on
    // processes, sockets and timers more than they compute: four workers overlap those waits, where
    // two left a core idle and five spent more on switching than they gained (CONTRIBUTING.md).
    // VITEST_MAX_WORKERS overrides it.
    maxWorkers: 4,
    sequence: { sequencer: WaitingFilesFirst },
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.generated.ts', 'src/testing/cli.ts'],
      reporter: ['text-summary', 'text'],
    },
    projects: [
      {
        // The unit and integration suite, in Node (npm run test:unit, and test:node22 on Node 22).
        // Files share each worker's modules (isolate: false): loading msw, zod and the SDK, and
        // generating the mock's dataset, once per worker instead of once per file is most of what
        // the suite saved (CONTRIBUTING.md). A file that replaces a module (vi.mock) runs alone.
        test: {
          ...nodeSuite,
          name: 'node',
          isolate: false,
          exclude: [...nodeSuite.exclude, ...isolated],
        },
      },
      {
        // The files that replace a module with vi.mock or vi.doMock, each with modules of its own.
        test: { ...nodeSuite, name: 'node-isolated', include: isolated },
      },
      {
        // The BUILT package (dist/) in Debian's Chromium, against the mock API over real HTTP (CORS).
        // Run it with `npm run test:browser` (scripts/test-browser.mjs checks for Chromium first).
        resolve: {
          // Test files import the package by its name, as users do; these point the names at dist/.
          alias: [
            { find: /^scholarly-metrics$/, replacement: dist('index.js') },
            { find: /^scholarly-metrics\/webhooks$/, replacement: dist('webhooks.js') },
            { find: /^scholarly-metrics\/testing$/, replacement: dist('testing.js') },
          ],
        },
        // Pre-bundled up front, so that Vite never reloads the page mid-run to add them.
        optimizeDeps: { include: ['ky', 'p-retry', 'zod/mini', 'zod/v4/core'] },
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/browser/global-setup.ts'],
          testTimeout: 20_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: {
                executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
                args: [
                  '--no-sandbox',
                  '--disable-gpu',
                  '--disable-background-networking',
                  '--disable-component-update',
                  '--disable-sync',
                  '--no-first-run',
                ],
              },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
