import { RequestAbortedError } from './errors.js';
import { escapeUnsafe } from './escape.js';
import { redactHeaders, redactText, type Secret } from './redact.js';

type Load = () => Promise<typeof import('./redact-cause.js')>;

/**
 * A request's failure: its cause cleaned of the secret ({@link redactCause}), and the reason the
 * chain gives. The walk over a cause chain is for the error path only: its module is loaded with
 * the first failure.
 */
export async function explainCause(
  error: unknown,
  secret: Secret,
  load: Load = () => import('./redact-cause.js'),
): Promise<{ cause: unknown; reason: string }> {
  let explained: { cause: unknown; reason: string };
  try {
    explained = (await load()).explainCause(error, secret, { redactText, redactHeaders });
  } catch {
    // An offline browser cannot fetch the module, and a connection failure is when that happens:
    // the cause as text, cleaned, so that the caller still gets the SDK's typed error.
    let text: string;
    try {
      // An error's message alone, as the module would give it (`Failed to fetch`, not `TypeError: …`).
      text = error instanceof Error ? error.message : String(error);
    } catch {
      // A value with no text (`Object.create(null)`, a revoked proxy): its type, as cause-reason.ts's
      // textOf says it; sharing that one would put a chunk of its own in every first load.
      text = typeof error;
    }
    const reason = redactText(text, secret);
    explained = { cause: secret ? new Error(reason) : error, reason };
  }
  // What a runtime, a server or a hook wrote: escaped, so that no control sequence acts where it is shown.
  return { cause: explained.cause, reason: escapeUnsafe(explained.reason) };
}

/**
 * The error of a call its caller aborted: its cause is the caller's reason, which may hold the secret as
 * any error may, cleaned as a hook's error is (the reason explainCause gives beside it goes unused).
 */
export async function abortedError(message: string, reason: unknown, secret: Secret) {
  return new RequestAbortedError(message, await explainCause(reason, secret));
}
