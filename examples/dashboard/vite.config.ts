/**
 * The dashboard's Vite config. The page itself holds no key: in development (`vite`) and in
 * `vite preview`, Vite's proxy forwards `/api/v1` to the API adding the key from the server's
 * environment, and `/events` to the relay (server.ts) that turns webhooks into server-sent events.
 *
 *   METRIC_API_KEY=… DASHBOARD_API=https://api.example.com npx vite examples/dashboard
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions, type UserConfig } from 'vite';

export interface DashboardBackend {
  /** Where the API lives: `/api/v1/…` on the page goes to `${api}/api/v1/…`. */
  api: string;
  /** Where the event relay listens: `/events` on the page goes to `${events}/events`. */
  events: string;
  /** Added by the proxy, server-side: it never reaches the page or the bundle. */
  apiKey: string;
}

export function dashboardConfig(backend: DashboardBackend): UserConfig {
  const proxy: Record<string, ProxyOptions> = {
    '/api/v1': {
      target: backend.api,
      changeOrigin: true,
      // Replaces whatever Authorization the browser might send.
      headers: { authorization: `Bearer ${backend.apiKey}` },
    },
    '/events': { target: backend.events, changeOrigin: true },
  };
  return {
    root: dirname(fileURLToPath(import.meta.url)),
    plugins: [react()],
    server: { proxy },
    preview: { proxy },
  };
}

/** The backend from the environment: `METRIC_API_KEY` is required, the addresses default to server.ts's. */
function backendFromEnv(): DashboardBackend {
  const apiKey = process.env.METRIC_API_KEY;
  if (!apiKey)
    throw new Error('Set METRIC_API_KEY in the environment of the dev server (never in the page).');
  return {
    api: process.env.DASHBOARD_API ?? 'http://127.0.0.1:4010',
    events: process.env.DASHBOARD_EVENTS ?? 'http://127.0.0.1:4011',
    apiKey,
  };
}

export default defineConfig(() => dashboardConfig(backendFromEnv()));
