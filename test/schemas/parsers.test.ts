import { readFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { INVALID } from 'zod/v4/core';
import { fieldsPath, generate, generateFields, outputPath } from '../../scripts/generate-parsers.js';
import { INVALID as SENTINEL } from '../../src/core/parser-sentinel.js';
import { isoDate } from '../../src/schemas/common.js';
import * as checks from '../../src/schemas/parser-checks.js';
import { parsers } from '../../src/schemas/parsers.generated.js';
import { responseSchemas } from '../../src/schemas/response-schemas.js';

it('the committed generated parsers and field lists match the schemas (run `npm run generate` after a schema change)', () => {
  expect(readFileSync(outputPath, 'utf8')).toBe(generate());
  expect(readFileSync(fieldsPath, 'utf8')).toBe(generateFields());
});

type Schema = z.core.$ZodType;

/** Valid values of a schema, and near misses: mostly right, now and then wrong in one place. */
interface Values {
  valid: fc.Arbitrary<unknown>;
  near: fc.Arbitrary<unknown>;
}

const notJson = fc.constantFrom(undefined, Number.NaN, Number.POSITIVE_INFINITY, -0);
const wrongType = fc.oneof(
  fc.constantFrom(null, true, '', '7', '2024-01-01', 0, 1.5, [], {}),
  fc.double(),
  fc.string({ maxLength: 4 }),
  notJson,
);
/** An extra key: arbitrary, or one with a meaning of its own to objects. */
const extraKey = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', '0', '10', 'extra'),
);
const anyValue = fc.anything({ maxDepth: 2, maxKeys: 3 });

/** Sometimes right, sometimes wrong: most of a near miss stays valid, so that its one fault matters. */
const mostly = (good: fc.Arbitrary<unknown>, bad: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 12, arbitrary: good }, { weight: 1, arbitrary: bad });

/** ISO dates, real ones only (leap days included), and near misses a character or a day off. */
function dateValues(): Values {
  const valid = fc
    .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
    .map((date) => date.toISOString().slice(0, 10));
  const bad = fc.oneof(
    fc.constantFrom('2023-02-29', '1900-02-29', '2024-13-01', '2024-04-31', '2024-1-01', '2024-01-01\n'),
    fc.constantFrom('2024-01-01T00:00:00Z', ' 2024-01-01', '20240101', '+012024-01-01'),
    wrongType,
  );
  return { valid: fc.oneof(valid, fc.constantFrom('2024-02-29', '2000-02-29')), near: mostly(valid, bad) };
}

/**
 * Objects with every key of `schema`'s shape and a few extra ones, in any order; a near miss may lack a
 * key, hold a near miss of a value, or be no object.
 */
function objectValues(schema: z.ZodMiniObject): Values {
  const fields = Object.entries(schema._zod.def.shape).map(([key, field]) => [key, values(field)] as const);
  const known = new Set(fields.map(([key]) => key));
  const extras = (keys: fc.Arbitrary<string>) => fc.array(fc.tuple(keys, anyValue), { maxLength: 3 });
  const build = (entries: [string, unknown][], shuffled: boolean) =>
    (shuffled
      ? fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length })
      : fc.constant(entries)
    ).map((ordered) => Object.fromEntries(ordered));
  const valid = fc
    .tuple(
      fc.tuple(
        ...fields.map(([key, field]) => field.valid.map((value) => [key, value] as [string, unknown])),
      ),
      extras(extraKey.filter((key) => !known.has(key))),
      fc.boolean(),
    )
    .chain(([own, extra, shuffled]) => build([...own, ...extra], shuffled));
  const missing = Symbol('missing');
  const near = fc
    .tuple(
      fc.tuple(...fields.map(([, field]) => mostly(field.near, fc.constant(missing)))),
      extras(fc.oneof(extraKey, fc.constantFrom(...known))),
      fc.boolean(),
    )
    .chain(([own, extra, shuffled]) => {
      const present = fields.flatMap(([key], i): [string, unknown][] =>
        own[i] === missing ? [] : [[key, own[i]]],
      );
      return build([...present, ...extra], shuffled);
    });
  return { valid, near: mostly(near, wrongType) };
}

/** Arrays of up to four of the element's values; a near miss holds near misses, or is no array. */
function arrayValues(schema: z.ZodMiniArray): Values {
  const element = values(schema._zod.def.element);
  return {
    valid: fc.array(element.valid, { maxLength: 4 }),
    near: mostly(fc.array(element.near, { maxLength: 4 }), wrongType),
  };
}

/** Values of a schema that holds no other, by the type its definition names. */
function scalarValues(type: string): Values {
  switch (type) {
    case 'number': {
      const valid = fc.oneof(fc.nat(), fc.constantFrom(0, -0, Number.MAX_SAFE_INTEGER));
      const bad = fc.oneof(
        fc.integer({ min: -5, max: -1 }),
        fc.constantFrom(0.5, 2 ** 53, -(2 ** 53), Number.MIN_SAFE_INTEGER, 1e300),
        wrongType,
      );
      return { valid, near: mostly(valid, bad) };
    }
    case 'string':
      return { valid: fc.string({ maxLength: 8 }), near: mostly(fc.string({ maxLength: 8 }), wrongType) };
    case 'boolean':
      return { valid: fc.boolean(), near: mostly(fc.boolean(), fc.constantFrom(0, 1, 'true', null)) };
    case 'unknown':
      return { valid: anyValue, near: fc.oneof(anyValue, notJson) };
    default:
      throw new Error(`no values for a schema of type ${type}`);
  }
}

/** The values of `schema`, built from those of the schemas it holds. */
function values(schema: Schema): Values {
  // The response schemas' date (src/schemas/common.ts), or zod's own ISO date in the tests below.
  if (schema === isoDate || schema._zod.traits.has('$ZodISODate')) return dateValues();
  if (schema instanceof z.ZodMiniObject) return objectValues(schema);
  if (schema instanceof z.ZodMiniArray) return arrayValues(schema);
  return scalarValues(schema._zod.def.type);
}

/** Every object and array reachable from `value`: the nodes an output may share with its input. */
function nodesOf(value: unknown, nodes = new Set<unknown>()): Set<unknown> {
  if (typeof value !== 'object' || value === null || nodes.has(value)) return nodes;
  nodes.add(value);
  for (const key of Reflect.ownKeys(value)) nodesOf(Reflect.get(value, key), nodes);
  return nodes;
}

/**
 * `ours` is what zod gave (`theirs`) down to the details `toEqual` glosses over: key order, `-0`,
 * own `undefined` keys, prototypes, and which parts are the input's own (passed by reference) and
 * which are fresh.
 */
function expectSameOutput(ours: unknown, theirs: unknown, input: Set<unknown>, path = 'output') {
  if (typeof theirs !== 'object' || theirs === null) {
    expect(Object.is(ours, theirs), `${path}: ${String(ours)} vs zod's ${String(theirs)}`).toBe(true);
    return;
  }
  if (input.has(theirs)) {
    expect(ours === theirs, `${path} is the input's own, as zod passes it`).toBe(true);
    return;
  }
  if (typeof ours !== 'object' || ours === null || input.has(ours))
    throw new Error(`${path} is not a fresh object`);
  const object = ours;
  expect(Array.isArray(object), `${path} is an array as zod's is`).toBe(Array.isArray(theirs));
  expect(Object.getPrototypeOf(object), `${path} prototype`).toBe(Object.getPrototypeOf(theirs));
  expect(Reflect.ownKeys(object), `${path} keys, in order`).toEqual(Reflect.ownKeys(theirs));
  for (const key of Reflect.ownKeys(theirs)) {
    if (key === 'length') continue;
    expectSameOutput(Reflect.get(object, key), Reflect.get(theirs, key), input, `${path}.${String(key)}`);
  }
}

/** A value as a JSON body arrives: an own `__proto__` key stays an ordinary key, `undefined` keys go. */
const viaJson = (value: unknown) => JSON.parse(JSON.stringify(value) ?? 'null') as unknown;

/** Checks `parse` against zod's runtime on the raw `schema`, 2,000 generated inputs. */
function agreesWithZod(schema: Schema, parse: (input: unknown) => unknown) {
  const { valid, near } = values(schema);
  const input = fc
    .tuple(fc.oneof({ weight: 2, arbitrary: valid }, { weight: 3, arbitrary: near }, anyValue), fc.boolean())
    .map(([value, json]) => (json ? viaJson(value) : value));
  const verdicts = { accepted: 0, refused: 0 };
  fc.assert(
    fc.property(input, (value) => {
      const reference = z.safeParse(schema, value);
      const out = parse(value);
      if (out === INVALID) {
        verdicts.refused++;
        expect(reference.success, 'zod refuses what the parser refuses').toBe(false);
      } else {
        verdicts.accepted++;
        expect(reference.success, 'zod accepts what the parser accepts').toBe(true);
        expectSameOutput(out, reference.data, nodesOf(value));
      }
    }),
    { numRuns: 2_000 },
  );
  // Both verdicts must be exercised in earnest, or the property says little.
  expect(verdicts.accepted).toBeGreaterThan(300);
  expect(verdicts.refused).toBeGreaterThan(300);
}

describe('every generated parser decides and outputs exactly as zod does', () => {
  for (const [name, parse] of Object.entries(parsers)) {
    it(name, () => {
      agreesWithZod(responseSchemas[name as keyof typeof parsers], parse);
    });
  }
});

/**
 * The emitted source run as JavaScript. Tests only: the shipped parsers are committed source, and
 * this is the one place `new Function` is fine (and the way to try a schema the SDK does not have).
 */
function run(source: string): Record<string, (input: unknown) => unknown> {
  const body = stripTypeScriptTypes(source.replace(/^import .*$/gm, '').replace(/^export /gm, ''));
  const given = Object.entries(checks);
  return new Function(...given.map(([name]) => name), `${body}\nreturn parsers;`)(
    ...given.map(([, check]) => check),
  );
}

it('kinds the response schemas use apart, combined: unknown and boolean keys, exclusive bounds', () => {
  const schema = z.looseObject({
    any: z.unknown(),
    on: z.boolean(),
    n: z.int().check(z.gt(3), z.gte(-1)),
    list: z.array(z.looseObject({ day: z.iso.date(), s: z.string() })),
  });
  agreesWithZod(schema, run(generate({ kinds: schema })).kinds!);
});

describe('the emitter refuses, by path, what it cannot model', () => {
  const cases: [string, Schema, RegExp][] = [
    ['z.optional', z.looseObject({ a: z.optional(z.string()) }), /^generate-parsers: bad\.a: optional key/],
    [
      'z.email()',
      z.looseObject({ list: z.array(z.looseObject({ mail: z.email() })) }),
      /^generate-parsers: bad\.list\[\]\.mail: .*format "email"/,
    ],
    ['z.union', z.array(z.union([z.string(), z.int()])), /^generate-parsers: bad\[\]: def type "union"/],
    [
      'z.object (strips unknown keys)',
      z.object({ a: z.string() }),
      /^generate-parsers: bad: object with no catchall/,
    ],
    [
      'z.strictObject',
      z.strictObject({ a: z.string() }),
      /^generate-parsers: bad: object with catchall "never"/,
    ],
    [
      'z.number()',
      z.looseObject({ n: z.number() }),
      /^generate-parsers: bad\.n: number other than z\.int\(\)/,
    ],
    ['z.coerce', z.coerce.string(), /^generate-parsers: bad: definition field "coerce"/],
    [
      'a string check other than z.regex',
      z.string().check(z.minLength(1)),
      /^generate-parsers: bad \(check 0\): check "min_length"/,
    ],
    [
      'a refinement',
      z.int().check(z.refine((n) => n % 2 === 0)),
      /^generate-parsers: bad \(check 0\): check "custom"/,
    ],
    ['z.maximum', z.int().check(z.maximum(9)), /^generate-parsers: bad \(check 0\): check "less_than"/],
    [
      'an array length',
      z.array(z.string()).check(z.minLength(1)),
      /^generate-parsers: bad: check "min_length"/,
    ],
  ];
  for (const [label, schema, message] of cases) {
    it(label, () => {
      expect(() => generate({ bad: schema })).toThrow(message);
    });
  }
});

it("the parsers' INVALID is zod's own, named without loading zod's runtime", () => {
  expect(SENTINEL).toBe(INVALID);
});
