// Hooks typed with ky's own types (ky is installed with the package) are accepted as they are.
import type { AfterResponseHook as KyAfterResponseHook, BeforeRequestHook as KyBeforeRequestHook } from 'ky';
import { type ClientHooks, MetricClient } from 'scholarly-metrics';

const sign: KyBeforeRequestHook = ({ request }) => {
  request.headers.set('x-signature', 'abc');
};
const log: KyAfterResponseHook = ({ response, retryCount }) => console.log(response.status, retryCount);
const hooks: ClientHooks = { beforeRequest: [sign], afterResponse: [log] };
export const client = new MetricClient({ apiKey: 'k', baseUrl: 'https://x.example/api/v1', hooks });
