import type { TelemetryOptions } from '../core/telemetry-types.js';
import { VERSION } from '../core/version.js';
import type { deliveryTelemetry } from '../telemetry/webhook-telemetry.js';
import type { Delivery, Reply } from './delivery.js';

/** What a delivery told of itself, for its span. */
export interface Seen {
  journalId?: number | undefined;
}

/** `answer` inside a span per delivery; the telemetry's code is loaded with the first delivery. */
export function traced<Context>(
  telemetry: TelemetryOptions,
  answer: (context: Context, inspect: () => Delivery, seen?: Seen) => Promise<Reply>,
): (context: Context, inspect: () => Delivery) => Promise<Reply> {
  let loaded: Promise<Awaited<ReturnType<typeof deliveryTelemetry>> | undefined> | undefined;
  return async (context, inspect) => {
    // Telemetry never costs a delivery: a chunk that failed to load leaves it untraced.
    loaded ??= import('../telemetry/webhook-telemetry.js').then(
      (m) => m.deliveryTelemetry(telemetry, VERSION),
      () => undefined,
    );
    const receive = await loaded;
    if (receive === undefined) return answer(context, inspect);
    const outcome = await receive(async () => {
      const seen: Seen = {};
      const given = await answer(context, inspect, seen);
      return { status: given.status, journalId: seen.journalId, reply: given };
    }, traceparentOf(inspect));
    return outcome.reply;
  };
}

/** The delivery's `traceparent` header; a request too unusual to describe has none (`answer` says why). */
function traceparentOf(inspect: () => Delivery): unknown {
  try {
    return inspect().traceparent;
  } catch {
    return undefined;
  }
}
