import type { TelemetryOptions } from '../core/telemetry-types.js';
import { VERSION } from '../core/version.js';
import { deliveryTelemetry } from '../telemetry/webhook-telemetry.js';
import type { Delivery, Reply } from './delivery.js';

/** What a delivery told of itself, for its span. */
export interface Seen {
  journalId?: number | undefined;
}

/**
 * `answer` inside a span per delivery; the instruments are made with the first delivery. The
 * telemetry's code comes with the receiver rather than as a chunk of its own: a receiver runs on a
 * server, where a second file saves nothing, while a browser bundle of this entry pays for each chunk.
 *
 * A tracer or meter that throws goes to `failed`, and the delivery is answered all the same: the
 * receiver never rejects, and the callback runs once (a sender told of a failure would deliver again).
 */
export function traced<Context>(
  telemetry: TelemetryOptions,
  answer: (context: Context, inspect: () => Delivery, seen?: Seen) => Promise<Reply>,
  failed: (error: unknown) => void,
): (context: Context, inspect: () => Delivery) => Promise<Reply> {
  let loaded: ReturnType<typeof deliveryTelemetry> | undefined;
  return async (context, inspect) => {
    let answering: Promise<Reply> | undefined;
    try {
      loaded ??= deliveryTelemetry(telemetry, VERSION, failed);
      const receive = await loaded;
      const outcome = await receive(async () => {
        const seen: Seen = {};
        answering ??= answer(context, inspect, seen);
        const given = await answering;
        return { status: given.status, journalId: seen.journalId, reply: given };
      }, traceparentOf(inspect));
      return outcome.reply;
    } catch (error) {
      failed(error);
      return answering ?? answer(context, inspect);
    }
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
