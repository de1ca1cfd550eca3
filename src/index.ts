export type {
  AuthorListParams,
  CountryListParams,
  JournalPapersParams,
  PaperSearchParams,
} from './api/params.js';
export type { CacheMethod, CacheOptions, CacheStore } from './cache/options.js';
export { MetricClient, MetricClient as default } from './client.js';
export type { ClientOptions, ClientOptionsBase } from './client-options.js';
export { APIPromise, type CacheStatus, type WithResponse } from './core/api-promise.js';
export type { MetricCache, ScoreEvent } from './core/cache-types.js';
export {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConnectionError,
  InternalServerError,
  InvalidParameterError,
  MetricError,
  NotFoundError,
  PermissionDeniedError,
  QuotaUnavailableError,
  RateLimitError,
  RequestAbortedError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  type ValidationIssue,
  WebhookPayloadError,
} from './core/errors.js';
export type { HeadersInput } from './core/headers.js';
export type {
  AfterResponseHook,
  AfterResponseState,
  BeforeRequestHook,
  BeforeRequestState,
  ClientHooks,
  HookOptions,
} from './core/hook-types.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { RequestOptions } from './core/options/request.js';
export { Page, type PlainPage } from './core/page.js';
export { PagePromise, type PageRequestOptions } from './core/pagination.js';
export type { QuotaAttempt, QuotaIdentity, RequestQuota, SharedQuota } from './core/quota-types.js';
export type { Quartile, ScoreUpdatedEvent } from './core/score-updated-event.js';
export type {
  MeterProviderLike,
  TelemetryAttributes,
  TelemetryOptions,
  TracerProviderLike,
} from './core/telemetry-types.js';
export { Authors } from './resources/authors.js';
export { Countries } from './resources/countries.js';
export type { GetManyOptions, PaperResult } from './resources/get-many.js';
export { Journals } from './resources/journals.js';
export { Papers } from './resources/papers.js';
export { Subjects } from './resources/subjects.js';
export type { Author, AuthorProfile } from './schemas/authors.js';
export type { Country } from './schemas/countries.js';
export type { Journal, JournalPaper, JournalProfile, ScoreHistory, ScorePoint } from './schemas/journals.js';
export type { Paper, PaperSummary } from './schemas/papers.js';
export type { Subject } from './schemas/subjects.js';
export type { WebhookBody } from './webhooks/decode-body.js';
export type { WebhookEvent } from './webhooks/event.js';
export { createWebhookHandler, type FetchWebhookContext } from './webhooks/fetch-handler.js';
export {
  createNodeWebhookHandler,
  type NodeWebhookContext,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
} from './webhooks/node-handler.js';
export { parseWebhookEvent, type ReadBody } from './webhooks/parse.js';
export type { WebhookHandlerOptions } from './webhooks/receiver.js';
export { createEventRelay, type EventRelay, type EventRelayOptions } from './webhooks/relay.js';
