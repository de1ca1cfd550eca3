import type { Hooks } from 'ky';
import { explainCause } from './clean-cause.js';
import { MetricError } from './errors.js';
import type { AfterResponseHook, BeforeRequestHook, ClientHooks } from './hook-types.js';
import { type Logger, loggableHeaders } from './logger.js';
import { checkHooks } from './options/client.js';

/**
 * The hooks handed to ky: the user's, each guarded, and the debug log of what is actually sent;
 * `undefined` when there are none, which spares ky merging empty lists on every call.
 */
export function hooksFor(
  hooks: ClientHooks | undefined,
  logger: Logger | undefined,
  secret: string | null,
): Hooks | undefined {
  if (!hooks?.beforeRequest?.length && !hooks?.afterResponse?.length && !logger) return undefined;
  const beforeRequest: BeforeRequestHook[] = (hooks?.beforeRequest ?? []).map((hook) =>
    guarded('beforeRequest', hook, secret),
  );
  const afterResponse: AfterResponseHook[] = (hooks?.afterResponse ?? []).map((hook) =>
    guarded('afterResponse', hook, secret),
  );
  // Logged last, so that the line shows the request as the user's hooks left it. The logger cuts the
  // key from the line wherever a hook put it.
  if (logger) {
    beforeRequest.push(({ request }) => {
      logger.debug(`${request.method} ${request.url}`, { headers: loggableHeaders(request.headers) });
    });
  }
  // ky's state types are richer than the client's (a subset of them), so its hooks take these.
  return { beforeRequest, afterResponse } as Hooks;
}

/**
 * The hooks of a {@link MetricClient.withOptions} child: the parent's first, then the child's, kind
 * by kind, as ky's own `extend` merges them.
 */
export function mergeHooks(
  parent: ClientHooks | undefined,
  child: ClientHooks | undefined,
): ClientHooks | undefined {
  checkHooks(child);
  if (parent === undefined || child === undefined) return child ?? parent;
  const merged = (kind: keyof ClientHooks) => [...(parent[kind] ?? []), ...(child[kind] ?? [])];
  return {
    beforeRequest: merged('beforeRequest') as BeforeRequestHook[],
    afterResponse: merged('afterResponse') as AfterResponseHook[],
  };
}

/**
 * `hook` with what it throws turned into a {@link hookError}. What it returns is passed on, but for
 * an `afterResponse` hook only a `Response` (of any realm): on `ky.retry()`'s marker ky would throw
 * and retry, and retries are the client's (`maxRetries`).
 */
function guarded<State, Result>(
  kind: keyof ClientHooks,
  hook: (state: State) => Result | Promise<Result>,
  secret: string | null,
): (state: State) => Promise<Result | undefined> {
  return async (state) => {
    try {
      const result = await hook(state);
      return kind === 'beforeRequest' || Object.prototype.toString.call(result) === '[object Response]'
        ? result
        : undefined;
    } catch (error) {
      throw await hookError(kind, error, secret);
    }
  };
}

async function hookError(kind: string, error: unknown, secret: string | null): Promise<MetricError> {
  // Always wrapped, the SDK's own errors too: what a hook throws is never retried, and never
  // carries the key.
  const { cause, reason } = await explainCause(error, secret);
  return new MetricError(`The ${kind} hook threw: ${reason}`, { cause });
}
