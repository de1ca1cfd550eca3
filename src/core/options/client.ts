import { ConfigurationError } from '../errors.js';
import type { ClientHooks } from '../hook-types.js';
import { isRecord } from '../is-record.js';

export type { ResolvedClientOptions } from './client-types.js';

/** Checks the `hooks` option at construction, so a typo fails there and not on the first request. */
export function checkHooks(value: ClientHooks | undefined): ClientHooks | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    throw new ConfigurationError(
      'hooks',
      '`hooks` must be an object with `beforeRequest` and/or `afterResponse` arrays',
    );
  }
  for (const kind of Object.keys(value)) {
    if (kind !== 'beforeRequest' && kind !== 'afterResponse') {
      throw new ConfigurationError(
        `hooks.${kind}`,
        `\`hooks.${kind}\` is not supported: the client runs beforeRequest and afterResponse hooks`,
      );
    }
  }
  for (const kind of ['beforeRequest', 'afterResponse'] as const) {
    const list = value[kind];
    if (list !== undefined && !(Array.isArray(list) && list.every((hook) => typeof hook === 'function'))) {
      throw new ConfigurationError(`hooks.${kind}`, `\`hooks.${kind}\` must be an array of functions`);
    }
  }
  return value;
}
