/** Error codes that say more than a runtime's "fetch failed": ECONNREFUSED, ENOTFOUND, ECONNRESET… */
const codePattern = /^[A-Z][A-Z0-9_]{2,}$/;
/**
 * How far down a cause chain the SDK looks: here for a reason, and in redact-cause.ts for the secret
 * (nested properties too; what lies deeper is left out). A hostile error's chain is not the SDK's to
 * walk.
 */
export const maxCauseDepth = 8;

/**
 * Why a request got no answer (or a hook failed), from its cause: the lowest reason in the chain,
 * since "fetch failed" alone does not tell a refused connection from an unknown host, and the error
 * code found on the way. Never throws, whatever the error's properties do.
 */
export function describeChain(error: unknown): string {
  try {
    return reasonOf(error);
  } catch {
    // A getter that throws, a message that is a symbol: the error as text, if even that works.
    return textOf(error);
  }
}

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return textOf(error);
  let reason = String(error.message);
  let code: string | undefined;
  let deepest: unknown = error;
  for (let depth = 0; deepest instanceof Error && depth < maxCauseDepth; depth++) {
    const found = (deepest as { code?: unknown }).code;
    if (typeof found === 'string' && codePattern.test(found)) code = found;
    const { message } = deepest;
    if (deepest !== error && typeof message === 'string' && message && !reason.includes(message)) {
      reason += `: ${message}`;
    }
    deepest = deepest.cause;
  }
  return code && !reason.includes(code) ? `${reason} (${code})` : reason;
}

/** A value as text; one whose conversion throws (a hostile object, a revoked proxy) as its type. */
function textOf(value: unknown): string {
  try {
    return String(value);
  } catch {
    return typeof value;
  }
}
