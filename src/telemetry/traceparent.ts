/*
 * The W3C Trace Context `traceparent` header (https://www.w3.org/TR/trace-context/), read strictly:
 * version 00 only, lower-case hex, a trace id and a parent id that are not all zeros. Anything else
 * is ignored, as the recommendation says a receiver does with a header it cannot parse.
 */

/** A remote parent, as OpenTelemetry's `SpanContext` takes it. */
export interface RemoteParent {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
  readonly isRemote: true;
}

const versionZero = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The parent a `traceparent` header names, or `undefined` when it is missing or not a valid one. */
export function parseTraceparent(header: unknown): RemoteParent | undefined {
  // Sent twice, a header is a list (Node) or joined with a comma (Fetch): neither is one valid value.
  if (typeof header !== 'string') return undefined;
  const match = versionZero.exec(header.trim());
  if (match === null) return undefined;
  const [, traceId, spanId, flags] = match as unknown as [string, string, string, string];
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  // Only the sampled bit is defined in version 00.
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) & 1, isRemote: true };
}
