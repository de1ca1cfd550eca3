import { redactHeaders, redactText } from './redact.js';

/**
 * An error's cause cleaned of the secret ({@link redactCause}), its module loaded with the first
 * failure that needs it: the walk over a cause chain is for the error path only.
 */
export async function cleanCause(
  error: unknown,
  secret: string | null,
  load: () => Promise<typeof import('./redact-cause.js')> = () => import('./redact-cause.js'),
): Promise<unknown> {
  if (!secret) return error;
  // An offline browser cannot fetch the module, and a connection failure is when that happens: the
  // cause as text, cleaned, so that the caller still gets the SDK's typed error.
  return load().then(
    ({ redactCause }) => redactCause(error, secret, { redactText, redactHeaders }),
    () => new Error(redactText(String(error), secret)),
  );
}
