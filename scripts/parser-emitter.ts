/**
 * Emits a fast parser, as a TypeScript expression over the generated file's combinators, from a zod
 * schema's definition (`schema._zod.def`).
 *
 * It knows only the node kinds the response schemas use, each with zod's runtime semantics (zod
 * 4.6.7, node_modules/zod/v4/core/schemas.js and checks.js); anything else is refused by name, so
 * that a schema change it does not understand fails `npm run generate` and the staleness test
 * instead of producing a parser that decides differently from zod.
 *
 * - `z.looseObject`: a non-array object; every shape key checked in shape order, then every other
 *   enumerable key copied as is, except `__proto__` (zod skips it: assigning it would replace the
 *   output's prototype). A key whose schema accepts `undefined` must still be present (`in`).
 * - `z.array`: an array; a fresh array of the same length, element by element.
 * - `z.string()`, `z.boolean()`, `z.unknown()` (passed by reference).
 * - `z.int()` (format "safeint"), with `greater_than` checks (`z.nonnegative()`, `z.gte`, `z.gt`).
 * - `z.iso.date()`: a string matching the definition's own pattern.
 * - `z.string().check(z.regex(pattern))`: a string matching each pattern, in order.
 */
import type * as z from 'zod/mini';
import { $ZodCheck, $ZodType } from 'zod/v4/core';

type Schema = z.core.$ZodType;

/** The definition fields the emitter reads; a definition is data to be checked, not trusted. */
interface Def {
  type: string;
  shape?: unknown;
  catchall?: unknown;
  element?: unknown;
  checks?: unknown;
  check?: unknown;
  format?: unknown;
  pattern?: unknown;
}

interface CheckDef {
  check: string;
  value?: unknown;
  inclusive?: unknown;
  format?: unknown;
  pattern?: unknown;
}

/** Fields that change only the messages or issue continuation, never the verdict or the output. */
const MESSAGE_ONLY = ['type', 'error', 'abort'];

export class UnsupportedSchemaError extends Error {
  constructor(path: string, what: string) {
    super(
      `generate-parsers: ${path}: ${what}; the parser emitter (scripts/parser-emitter.ts) does not support it`,
    );
    this.name = 'UnsupportedSchemaError';
  }
}

/**
 * Module-level constants (the patterns), shared by every parser of one generated file. A pattern the
 * schemas take from a module of the SDK (`shared`, by name) is imported from it rather than copied.
 */
export class Constants {
  readonly #byName = new Map<string, string>();
  readonly #bySource = new Map<string, string>();
  readonly #counts = new Map<string, number>();
  readonly #imports = new Set<string>();

  constructor(readonly shared: Readonly<Record<string, { value: RegExp; from: string }>> = {}) {}

  /** The name of the constant `source` declares, or of the shared one that is `value` itself. */
  add(prefix: string, source: string, value?: unknown): string {
    const shared = Object.keys(this.shared).find((name) => this.shared[name]!.value === value);
    if (shared !== undefined) {
      this.#imports.add(shared);
      return shared;
    }
    const known = this.#bySource.get(source);
    if (known) return known;
    const count = this.#counts.get(prefix) ?? 0;
    this.#counts.set(prefix, count + 1);
    const name = `${prefix}${count}`;
    this.#byName.set(name, source);
    this.#bySource.set(source, name);
    return name;
  }

  /** The import of each shared constant a parser used. */
  imports(): string[] {
    return [...this.#imports].map((name) => `import { ${name} } from '${this.shared[name]!.from}';`);
  }

  declarations(): string[] {
    return [...this.#byName].map(([name, source]) => `const ${name} = ${source};`);
  }
}

const str = (value: string) => JSON.stringify(value);

function describe(def: Def): string {
  const extra = typeof def.check === 'string' ? `, check "${def.check}"` : '';
  const format = typeof def.format === 'string' ? `, format "${def.format}"` : '';
  return `def type "${def.type}"${extra}${format}`;
}

/**
 * The parser of a schema as an expression over the checks of src/schemas/parser-checks.ts: one
 * small closure per node, composed once at load, rather than code unrolled per field.
 */
class ParserEmitter {
  constructor(readonly constants: Constants) {}

  /** The parser expression of `schema`. */
  node(schema: Schema, path: string): string {
    const def: Def = schema._zod.def;
    switch (def.type) {
      case 'object':
        return this.#object(def, path);
      case 'array':
        return this.#array(def, path);
      case 'string': {
        if (schema._zod.traits.has('$ZodISODate')) return this.#date(def, path);
        allowFields(def, path, ['checks'], describe(def));
        let parser = 'string';
        for (const [i, check] of checksOf(def, path).entries())
          parser = this.#regex(check, parser, `${path} (check ${i})`);
        return parser;
      }
      case 'boolean':
        allowFields(def, path, ['checks'], describe(def));
        noChecks(def, path);
        return 'boolean';
      case 'number':
        return this.#int(def, path);
      case 'unknown':
        allowFields(def, path, ['checks'], describe(def));
        noChecks(def, path);
        return 'unknown';
      default:
        throw new UnsupportedSchemaError(path, describe(def));
    }
  }

  #object(def: Def, path: string): string {
    allowFields(def, path, ['shape', 'catchall', 'checks'], describe(def));
    noChecks(def, path);
    const catchall = def.catchall;
    if (!(catchall instanceof $ZodType) || catchall._zod.def.type !== 'unknown' || hasChecks(catchall)) {
      const kind = catchall instanceof $ZodType ? `catchall "${catchall._zod.def.type}"` : 'no catchall';
      throw new UnsupportedSchemaError(path, `object with ${kind} (only z.looseObject is supported)`);
    }
    const shape = def.shape;
    if (typeof shape !== 'object' || shape === null || Object.getOwnPropertySymbols(shape).length > 0) {
      throw new UnsupportedSchemaError(path, 'object shape that is not a plain object of string keys');
    }
    const fields: string[] = [];
    for (const [key, field] of Object.entries(shape)) {
      const at = `${path}.${key}`;
      if (key === '__proto__') throw new UnsupportedSchemaError(at, 'shape key "__proto__"');
      if (!(field instanceof $ZodType))
        throw new UnsupportedSchemaError(at, 'a shape value that is not a schema');
      if (field._zod.optin !== undefined || field._zod.optout !== undefined) {
        throw new UnsupportedSchemaError(at, `optional key (${describe(field._zod.def)})`);
      }
      fields.push(`${str(key)}: ${this.#field(field, key, at)}`);
    }
    return `object((r) => ({ ${fields.join(', ')} }))`;
  }

  /** The expression that reads and checks the field `key` of the record `r`. */
  #field(schema: Schema, key: string, path: string): string {
    // zod requires a non-optional key to be present; only a schema that accepts undefined needs asking.
    if (schema._zod.def.type === 'unknown') {
      this.node(schema, path);
      return `present(r, ${str(key)})`;
    }
    const parser = this.node(schema, path);
    // A composite parser is built once, at load, rather than on every call of the object's literal.
    const name = /^\w+$/.test(parser) ? parser : this.constants.add('parser', parser);
    return `${name}(r[${str(key)}])`;
  }

  #array(def: Def, path: string): string {
    allowFields(def, path, ['element', 'checks'], describe(def));
    noChecks(def, path);
    const element = def.element;
    if (!(element instanceof $ZodType))
      throw new UnsupportedSchemaError(path, 'array element that is not a schema');
    return `array(${this.node(element, `${path}[]`)})`;
  }

  #int(def: Def, path: string): string {
    allowFields(def, path, ['check', 'format', 'checks'], describe(def));
    if (def.check !== 'number_format' || def.format !== 'safeint') {
      throw new UnsupportedSchemaError(path, `number other than z.int() (${describe(def)})`);
    }
    let parser = 'int';
    for (const [i, check] of checksOf(def, path).entries()) {
      const at = `${path} (check ${i})`;
      const checkDef: CheckDef = check._zod.def;
      if (checkDef.check !== 'greater_than') {
        throw new UnsupportedSchemaError(at, `check "${checkDef.check}" on ${describe(def)}`);
      }
      if (typeof checkDef.value !== 'number' || !Number.isFinite(checkDef.value)) {
        throw new UnsupportedSchemaError(at, 'check "greater_than" with a value that is not a finite number');
      }
      // `when` decides whether the check runs at all: a condition the emitter cannot model.
      allowFields(checkDef, at, ['check', 'value', 'inclusive'], `check "${checkDef.check}"`);
      parser = `bounded(${parser}, ${checkDef.value}, ${checkDef.inclusive === true})`;
    }
    return parser;
  }

  /** A `z.regex` check on a string: `matching` tests it as zod does (lastIndex reset first). */
  #regex(check: z.core.$ZodCheck, parser: string, at: string): string {
    const checkDef: CheckDef = check._zod.def;
    if (
      checkDef.check !== 'string_format' ||
      checkDef.format !== 'regex' ||
      !(checkDef.pattern instanceof RegExp)
    ) {
      throw new UnsupportedSchemaError(at, `check "${checkDef.check}" on a string`);
    }
    // `when` decides whether the check runs at all: a condition the emitter cannot model.
    allowFields(checkDef, at, ['check', 'format', 'pattern'], `check "${checkDef.check}"`);
    const pattern = this.constants.add('pattern', checkDef.pattern.toString(), checkDef.pattern);
    return `matching(${parser}, ${pattern})`;
  }

  #date(def: Def, path: string): string {
    allowFields(def, path, ['check', 'format', 'pattern', 'checks'], describe(def));
    noChecks(def, path);
    if (def.check !== 'string_format' || def.format !== 'date' || !(def.pattern instanceof RegExp)) {
      throw new UnsupportedSchemaError(path, `ISO date without its pattern (${describe(def)})`);
    }
    const pattern = this.constants.add('pattern', def.pattern.toString(), def.pattern);
    return `matching(string, ${pattern})`;
  }
}

/** A definition field the emitter does not know may change the semantics: refuse it. */
function allowFields(def: object, path: string, allowed: readonly string[], what: string) {
  for (const [key, field] of Object.entries(def)) {
    if (field === undefined || MESSAGE_ONLY.includes(key) || allowed.includes(key)) continue;
    throw new UnsupportedSchemaError(path, `definition field "${key}" (${what})`);
  }
}

function checksOf(def: Def, path: string): z.core.$ZodCheck[] {
  if (def.checks === undefined) return [];
  if (!Array.isArray(def.checks)) throw new UnsupportedSchemaError(path, '`checks` that is not an array');
  return def.checks.map((check: unknown, i) => {
    if (!(check instanceof $ZodCheck))
      throw new UnsupportedSchemaError(`${path} (check ${i})`, 'not a zod check');
    return check;
  });
}

function hasChecks(schema: Schema): boolean {
  const checks: unknown = schema._zod.def.checks;
  return Array.isArray(checks) && checks.length > 0;
}

function noChecks(def: Def, path: string) {
  const [check] = checksOf(def, path);
  if (check) throw new UnsupportedSchemaError(path, `check "${check._zod.def.check}" on ${describe(def)}`);
}

/** The parser of `schema`: an expression over the checks of src/schemas/parser-checks.ts. */
export function emitParser(schema: Schema, name: string, constants: Constants): string {
  return new ParserEmitter(constants).node(schema, name);
}
