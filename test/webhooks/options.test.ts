import { describe, expect, it } from 'vitest';
import {
  createEventRelay,
  createNodeWebhookHandler,
  createWebhookHandler,
} from '../../src/webhooks/index.js';
import { itRefusesAtConstruction, type RefusalCase } from '../helpers/refusals.js';

const receivers = [createWebhookHandler, createNodeWebhookHandler] as const;

/** The receivers' callback and options (test/helpers/refusals.ts): each refused at creation, naming it. */
const atConstruction: RefusalCase[] = [
  ...receivers.flatMap((create): RefusalCase[] => [
    [create.name, 'onEvent', () => create('nope' as never)],
    [create.name, 'options', () => create(() => {}, 5 as never)],
    [create.name, 'options', () => create(() => {}, null as never)],
    // `typeof [] === 'object'`: an array was taken as the options, with no option in it.
    [create.name, 'options', () => create(() => {}, [] as never)],
    [create.name, 'maxBodyBytes', () => create(() => {}, { maxBodyBytes: 0 })],
    [create.name, 'bodyTimeoutMs', () => create(() => {}, { bodyTimeoutMs: 2 ** 31 })],
    [create.name, 'onError', () => create(() => {}, { onError: 1 as never })],
    [create.name, 'cache', () => create(() => {}, { cache: {} as never })],
    [create.name, 'maxBodySize', () => create(() => {}, { maxBodySize: 1_000 } as never)],
  ]),
  ['createEventRelay', 'heartbeat', () => createEventRelay({ heartbeat: 1_000 } as never)],
  ['createEventRelay', 'options', () => createEventRelay(5 as never)],
  ['createEventRelay', 'options', () => createEventRelay(null as never)],
  // An array is refused as the receivers refuse it, by the shared check.
  ['createEventRelay', 'options', () => createEventRelay([] as never)],
];

describe('the receivers and the relay refuse a bad option with a ConfigurationError naming it', () => {
  itRefusesAtConstruction(atConstruction);

  it('accept the bounds', () => {
    for (const create of receivers) {
      expect(() => create(() => {}, { maxBodyBytes: 1, bodyTimeoutMs: 2 ** 31 - 1 })).not.toThrow();
    }
  });
});
