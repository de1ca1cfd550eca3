import { type ValidationIssue, WebhookPayloadError } from '../core/errors.js';
import { summarizeIssues } from '../core/issues.js';

/**
 * The names of `Object.prototype`'s members. A key with one of these names hides the built-in on the
 * object that holds it: `event.toString()` or `String(event)` throws, `record.hasOwnProperty(…)` calls
 * the sender's value, `value.constructor` is no longer the constructor. `__proto__` copied onto an
 * ordinary object replaces its prototype instead of adding a field. None is a field of any event.
 */
const builtInNames = new Set([
  '__proto__',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  'constructor',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  'toString',
  'valueOf',
]);

/**
 * The deepest nesting of objects and arrays accepted, the event itself being level 1. An event is
 * flat; the bound leaves room for nested fields a future server may add, and keeps code that walks an
 * event recursively (a logger, a deep copy, a deep equality) clear of stack overflows.
 */
export const maxNesting = 64;

/**
 * Checks every object and array below `root`, without recursion: no key names a member of
 * `Object.prototype`, and nothing is nested deeper than {@link maxNesting}. Each object is visited
 * once, so shared or cyclic references (possible in an already-parsed body) cost no more than a tree.
 *
 * @throws {WebhookPayloadError} naming the path of the first key refused, or where the nesting is too deep.
 */
export function checkNested(root: object): void {
  const seen = new WeakSet<object>();
  const stack: Array<{ value: object; path: PropertyKey[] }> = [{ value: root, path: [] }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, path } = item;
    if (seen.has(value)) continue;
    seen.add(value);
    if (path.length >= maxNesting) {
      throw payloadError(path, `nested deeper than ${maxNesting} levels of objects and arrays`);
    }
    const array = Array.isArray(value);
    for (const key of Object.keys(value)) {
      const at = [...path, array ? Number(key) : key];
      if (!array && builtInNames.has(key)) {
        throw payloadError(at, `the key "${key}" is not allowed: it shadows Object.prototype.${key}`);
      }
      const child = (value as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) stack.push({ value: child, path: at });
    }
  }
}

function payloadError(path: PropertyKey[], message: string): WebhookPayloadError {
  const issues: ValidationIssue[] = [{ path, message }];
  return new WebhookPayloadError(`invalid webhook payload: ${summarizeIssues(issues)}`, issues);
}
