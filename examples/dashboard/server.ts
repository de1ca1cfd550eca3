/**
 * The dashboard in development: the mock API, the event relay, and Vite's dev server whose proxy
 * adds the key. Open the printed address; `POST /__mock/score` on the mock changes a score live.
 *
 *   npm run build && npx node examples/dashboard/server.ts
 */
import { MOCK_API_KEY } from 'scholarly-metrics/testing';
import { createServer } from 'vite';
import { startDashboardBackend } from './backend.ts';
import { dashboardConfig } from './vite.config.ts';

const backend = await startDashboardBackend();
const config = dashboardConfig({ api: backend.api, events: backend.events, apiKey: MOCK_API_KEY });
const vite = await createServer({
  ...config,
  configFile: false,
  server: { ...config.server, host: '127.0.0.1', port: Number(process.env.PORT ?? 5173) },
});
await vite.listen();
vite.printUrls();
console.log(`mock API:  ${backend.api}/api/v1 (the dev server adds its key)`);
console.log(`change a score: curl -X POST ${backend.api}/__mock/score -H 'content-type: application/json' \\
  -d '{"journal_id": 1, "new_score": 90}'`);
process.once('SIGINT', () => {
  void Promise.all([vite.close(), backend.close()]).then(() => process.exit(0));
});
