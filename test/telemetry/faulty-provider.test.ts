// A tracer or meter that throws (a custom or faulty provider; OpenTelemetry's own never do) costs a
// call its span or its measures, never its answer.
import { describe, expect, it } from 'vitest';
import type { MeterProviderLike, TracerProviderLike } from '../../src/index.js';
import { createMockApi } from '../../src/testing/index.js';
import { testClient } from '../support.js';

const api = createMockApi();
const boom = () => {
  throw new Error('provider boom');
};

/** A span whose every method throws, and a tracer that gives it (or throws before the call, after it). */
const throwingSpan = { setAttribute: boom, addEvent: boom, setStatus: boom, end: boom };
const tracers: Array<[string, TracerProviderLike]> = [
  ['getTracer throws', { getTracer: boom }],
  ['startActiveSpan throws before the call', { getTracer: () => ({ startActiveSpan: boom }) }],
  [
    'startActiveSpan throws after the call',
    {
      getTracer: () => ({
        startActiveSpan: (_name: string, _options: object, fn: (span: object) => unknown) => {
          fn(throwingSpan);
          throw new Error('provider boom');
        },
      }),
    },
  ],
  [
    'startActiveSpan returns something else than the call',
    {
      getTracer: () => ({
        startActiveSpan: (_n: string, _o: object, fn: (span: object) => unknown) => {
          fn(throwingSpan);
          return undefined;
        },
      }),
    },
  ],
  [
    'startActiveSpan runs the call later, after it returned',
    {
      getTracer: () => ({
        startActiveSpan: (_n: string, _o: object, fn: (span: object) => unknown) => {
          setTimeout(() => fn(throwingSpan), 0);
          return undefined;
        },
      }),
    },
  ],
  [
    "the span's methods throw",
    {
      getTracer: () => ({
        startActiveSpan: (_n: string, _o: object, fn: (span: object) => unknown) => fn(throwingSpan),
      }),
    },
  ],
  [
    'startActiveSpan runs the call twice',
    {
      getTracer: () => ({
        startActiveSpan: (_n: string, _o: object, fn: (span: object) => unknown) => {
          fn(throwingSpan);
          return fn(throwingSpan);
        },
      }),
    },
  ],
  [
    "the span's methods return rejected promises",
    {
      getTracer: () => ({
        startActiveSpan: (_n: string, _o: object, fn: (span: object) => unknown) => fn(rejectingSpan),
      }),
    },
  ],
] as never;

const throwingInstrument = { record: boom, add: boom };
const rejecting = () => Promise.reject(new Error('provider boom'));
const rejectingSpan = { setAttribute: rejecting, addEvent: rejecting, setStatus: rejecting, end: rejecting };
/** An instrument whose methods cannot even be read. */
const unreadableInstrument = Object.defineProperties({}, { record: { get: boom }, add: { get: boom } });
const meterOf = (instrument: unknown) => ({
  getMeter: () => ({
    createHistogram: () => instrument,
    createCounter: () => instrument,
    createUpDownCounter: () => instrument,
  }),
});
const meters: Array<[string, MeterProviderLike]> = [
  ['getMeter throws', { getMeter: boom }],
  ['an instrument cannot be made', { getMeter: () => ({ createHistogram: boom, createCounter: boom }) }],
  [
    "the instruments' record and add throw",
    {
      getMeter: () => ({
        createHistogram: () => throwingInstrument,
        createCounter: () => throwingInstrument,
        createUpDownCounter: () => throwingInstrument,
      }),
    },
  ],
  ["the instruments' record and add cannot be read", meterOf(unreadableInstrument)],
  ['the instruments come back undefined', meterOf(undefined)],
  ['the instruments have no record or add', meterOf({})],
  [
    "the instruments' record and add return rejected promises",
    meterOf({ record: rejecting, add: rejecting }),
  ],
] as never;

describe('a tracer or meter that throws', () => {
  it.each(tracers)('%s: the calls get their answers, each sent once', async (_name, tracerProvider) => {
    const client = testClient({ telemetry: { tracerProvider } }, api);
    const sent = api.requests.length;
    expect((await client.journals.get(1)).id).toBe(1);
    expect(await client.journals.papers(1, { per_page: 2 }).toArray({ limit: 3 })).toHaveLength(3);
    await expect(client.journals.get(999_999)).rejects.toMatchObject({ name: 'NotFoundError' });
    expect(api.requests.length - sent).toBe(4);
  });

  it.each(meters)('%s: the calls get their answers, a 503 retried', async (_name, meterProvider) => {
    const client = testClient({ telemetry: { meterProvider } }, api);
    expect((await client.journals.get(1)).id).toBe(1);
    api.faults.next({ status: 503, headers: { 'retry-after': '0' } });
    expect((await client.journals.get(2)).id).toBe(2);
    await expect(client.journals.get(999_999)).rejects.toMatchObject({ name: 'NotFoundError' });
  });
});
