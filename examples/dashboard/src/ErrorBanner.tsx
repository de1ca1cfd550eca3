import { AuthenticationError, ConnectionError, type MetricError, RateLimitError } from 'scholarly-metrics';

/** What went wrong, in words a reader of the page can act on: one message per kind of error. */
export function errorText(error: MetricError): string {
  if (error instanceof RateLimitError) {
    return error.retryAfter === undefined
      ? 'rate limited: retry in a moment'
      : `rate limited: retry in ${error.retryAfter} s`;
  }
  if (error instanceof AuthenticationError) return 'not authorized: the server did not send a valid API key';
  // A TimeoutError is a ConnectionError too.
  if (error instanceof ConnectionError) return 'cannot reach the API: check the connection, then retry';
  return `something went wrong (${error.name}): ${error.message}`;
}

export function ErrorBanner({ error, onRetry }: { error: MetricError | null; onRetry?: () => void }) {
  if (error === null) return null;
  return (
    <div role="alert" className="banner" data-error={error.name}>
      <span>{errorText(error)}</span>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
