/**
 * The OpenAPI document's `score_updated` webhook (scripts/generate-openapi.ts): the event the service
 * posts (API §6) and what the SDK's receivers answer.
 */
import { type Json, ref } from './openapi-components.js';

const errorBody = { 'application/json': { schema: ref('Error') } };

/** The other answers of the SDK's receivers, each an Error body. */
const receiverAnswers: Json = Object.fromEntries(
  Object.entries({
    '405': 'A method other than POST.',
    '408': "A body slower than the receiver's `bodyTimeoutMs` (the connection is then closed).",
    '413': "A body past the receiver's `maxBodyBytes`, decoded or not (the connection is then closed).",
    '415': 'A `Content-Encoding` other than gzip, deflate or identity.',
    '500': 'Your callback threw (or rejected): deliver the event again.',
    '503': "The cache could not drop the event's answers (`cacheFailure: 'reject'`): deliver it again.",
  }).map(([status, description]) => [status, { description, content: errorBody }]),
);

export const webhooks: Json = {
  score_updated: {
    post: {
      operationId: 'scoreUpdated',
      summary: "A journal's score changed",
      description:
        "The service POSTs this event to the URL configured in its dashboard when a journal's " +
        'score changes. The API document shows no signature or shared secret, no delivery headers ' +
        'and no retry policy; deliveries may repeat: deduplicate on the whole event (`journal_id`, ' +
        '`timestamp`, `old_score`, `new_score`), as `timestamp` counts whole seconds and a score ' +
        'changed twice within one gives two events with one timestamp. ' +
        'SDK: `parseWebhookEvent`, `createWebhookHandler`, `createNodeWebhookHandler` from ' +
        '`scholarly-metrics/webhooks`.',
      security: [],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref('ScoreUpdatedEvent') } },
      },
      responses: {
        '200': {
          description:
            "Received. The API document does not state the expected answer; the SDK's receivers " +
            'answer 200 `{"received":true}` once your callback has finished.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { received: { const: true } },
                required: ['received'],
              },
            },
          },
        },
        '400': {
          description:
            "The SDK's receivers answer 400 with a reason to a body that is not a valid event; " +
            'besides this schema they refuse a key named after a member of `Object.prototype` ' +
            '(`constructor`, `toString`…) and nesting deeper than 64 levels.',
          content: errorBody,
        },
        ...receiverAnswers,
      },
    },
  },
};
