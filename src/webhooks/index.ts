/**
 * `scholarly-metrics/webhooks`: parse and receive the service's webhook calls.
 *
 * Imports neither the HTTP client nor any `node:` module, so it stays small and runs in every runtime.
 *
 * @example
 * ```ts
 * import { parseWebhookEvent } from 'scholarly-metrics/webhooks';
 * const event = parseWebhookEvent(await request.text());
 * ```
 *
 * @module
 */
export { WebhookPayloadError } from '../core/errors.js';
export type { Quartile, ScoreUpdatedEvent } from '../core/score-updated-event.js';
export type { MeterProviderLike, TelemetryOptions, TracerProviderLike } from '../core/telemetry-types.js';
export type { WebhookBody } from './decode-body.js';
export type { WebhookEvent } from './event.js';
export {
  createWebhookHandler,
  type FetchWebhookContext,
} from './fetch-handler.js';
export {
  createNodeWebhookHandler,
  type NodeWebhookContext,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
} from './node-handler.js';
export { parseWebhookEvent, type ReadBody } from './parse.js';
export type { WebhookHandlerOptions } from './receiver.js';
export { createEventRelay, type EventRelay, type EventRelayOptions } from './relay.js';
