import { stoppedByWalk } from '../core/abort.js';
import type { ResolvedClientOptions } from '../core/options/client.js';
import { mentionsSecret } from '../core/redact.js';
import { describeStatus } from '../core/status-message.js';
import type { CallTelemetry, TelemetryOptions } from '../core/telemetry-types.js';

/*
 * What a client or receiver given `telemetry` loads at once: the option's check, and a stand-in that
 * loads the implementation with the first call. Both are in every client's first load, so they are
 * kept to a few lines; without the option, nothing else of src/telemetry is ever downloaded.
 */

/** What the implementation uses of the first load (see FirstLoadParts in ./attributes.ts). */
const firstLoadParts = { stoppedByWalk, mentionsSecret, describeStatus };

/** The client's telemetry, its implementation loaded with the first call. */
export function lazyClientTelemetry(
  options: TelemetryOptions,
  client: ResolvedClientOptions,
  shared: boolean,
  version: string,
): CallTelemetry {
  let loading: Promise<CallTelemetry | undefined> | undefined;
  return {
    call(method, description, run) {
      loading ??= import('./client-telemetry.js').then(
        (m) => new m.ClientTelemetry(options, client, shared, version, firstLoadParts),
        // Telemetry never costs a call: a chunk that failed to load (offline) leaves this call
        // untraced, and the next tries again.
        () => {
          loading = undefined;
          return undefined;
        },
      );
      return loading.then((telemetry) =>
        telemetry ? telemetry.call(method, description, run) : run(undefined),
      );
    },
  };
}
