import { maxBodyDepth, pathTooDeep } from '../core/depth.js';
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
 * Checks every object and array below `root` (core's one depth walk): no key names a member of
 * `Object.prototype`, and nothing is nested deeper than core's `maxBodyDepth`, the event itself being
 * level 1. An event is flat; the bound leaves room for nested fields a future server may add, and
 * keeps code that walks an event recursively clear of stack overflows.
 *
 * @throws {WebhookPayloadError} naming the path of the first key refused, or where the nesting is too deep.
 */
export function checkNested(root: object): void {
  const tooDeep = pathTooDeep(root, maxBodyDepth, (key, parent) => {
    if (builtInNames.has(key)) {
      throw payloadError(
        [...parent, key],
        `the key "${key}" is not allowed: it shadows Object.prototype.${key}`,
      );
    }
  });
  if (tooDeep !== undefined) {
    throw payloadError(tooDeep, `nested deeper than ${maxBodyDepth} levels of objects and arrays`);
  }
}

function payloadError(path: PropertyKey[], message: string): WebhookPayloadError {
  const issues: ValidationIssue[] = [{ path, message }];
  return new WebhookPayloadError(`invalid webhook payload: ${summarizeIssues(issues)}`, issues);
}
