import type { ClientCache } from '../core/cache-types.js';
import type { ResolvedClientOptions } from '../core/options/client-types.js';
import type { ResponseCache } from './cache.js';
import type { ResolvedCacheOptions } from './options.js';

/**
 * The options are checked at construction; the cache's code is loaded with the first call that needs
 * it, so that a client without a cache never downloads it.
 */
export function clientCache(options: ResolvedCacheOptions, client: ResolvedClientOptions): ClientCache {
  let loaded: Promise<ResponseCache> | undefined;
  const load = () => {
    loaded ??= import('./cache.js').then(({ ResponseCache }) => new ResponseCache(options, client));
    return loaded;
  };
  const view = (owner: ResolvedClientOptions): ClientCache => ({
    apply: async (event) => (await load()).apply(event),
    clear: async () => (await load()).clear(),
    answer: async (route, shape, requestOptions, send) =>
      (await load()).answer(route, shape, requestOptions, send, owner),
    forClient: view,
  });
  return view(client);
}
