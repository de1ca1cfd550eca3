import { connectionError } from './failures.js';

/**
 * A module of the SDK kept out of the first load, loaded by the first call that needs it. A browser
 * offline cannot fetch it: that is a connection failure like any other, a `ConnectionError`, and the
 * next call tries again rather than meeting the same failure for the life of the page.
 */
export function onDemand<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch(async (error: unknown) => {
      loading = undefined;
      throw await connectionError('Loading a module of scholarly-metrics', error, null);
    });
    return loading;
  };
}
