/**
 * The page's one client of the API, and the TanStack Query options made from it.
 *
 * No key here: the page calls its own origin, and the server in front of it (Vite's proxy in
 * development, your own server in production) adds the key on the way to the API.
 */
import { MetricClient } from 'scholarly-metrics';
import { metricQueries } from 'scholarly-metrics/query';

export const client = new MetricClient({ apiKey: null, baseUrl: `${location.origin}/api/v1` });

// `retry: false` is the entry's default too: the SDK already retries what is worth retrying
// (429 with its Retry-After, 5xx, dropped connections), so TanStack adding its own would multiply them.
export const queries = metricQueries(client, { staleTime: 30_000 });
