import type { MockPlan } from './constants.js';
import { HttpError } from './responses.js';

/** Plans whose keys may call the API (API §5). */
const plansWithApiAccess: readonly MockPlan[] = ['professional', 'elite'];

/**
 * Checks `Authorization: Bearer <key>` and returns the key. Missing or unknown → 401; a plan without
 * API access → 403. Messages never repeat the key.
 */
export function authenticate(request: Request, keys: ReadonlyMap<string, MockPlan>): string {
  const header = request.headers.get('authorization');
  const challenge = { 'www-authenticate': 'Bearer realm="scholarly-metrics"' };
  if (header === null) {
    throw new HttpError(401, 'Missing API key: send the header Authorization: Bearer <API_KEY>', challenge);
  }
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (match === null) {
    throw new HttpError(401, 'Malformed Authorization header: expected Bearer <API_KEY>', challenge);
  }
  const key = match[1]!;
  const plan = keys.get(key);
  if (plan === undefined) throw new HttpError(401, 'Invalid API key', challenge);
  if (!plansWithApiAccess.includes(plan)) {
    throw new HttpError(
      403,
      `The ${plan} plan does not include API access; API access is part of the Professional and Elite plans`,
    );
  }
  return key;
}
