// Each status class has its literal status and name; a plain Error is no MetricError.
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  MetricError,
  NotFoundError,
  type PaperResult,
  PermissionDeniedError,
  RateLimitError,
} from 'scholarly-metrics';

export function statuses(error: unknown): number | undefined {
  if (error instanceof NotFoundError) {
    const status: 404 = error.status;
    const name: 'NotFoundError' = error.name;
    // @ts-expect-error: a 404 is never a 400
    const wrong: 400 = error.status;
    return status + name.length + wrong;
  }
  if (error instanceof BadRequestError) return error.status satisfies 400;
  if (error instanceof AuthenticationError) return error.status satisfies 401;
  if (error instanceof PermissionDeniedError) return error.status satisfies 403;
  if (error instanceof RateLimitError) return (error.status satisfies 429) + (error.retryAfter ?? 0);
  if (error instanceof InternalServerError) return error.status;
  if (error instanceof APIError) return error.status;
  if (error instanceof MetricError) return error.message.length;
  return undefined;
}

/** A plain Error is no MetricError to the types, as it is none at run time. */
export function plainErrors(result: PaperResult): MetricError[] {
  // @ts-expect-error: an Error the SDK did not make
  const plain: MetricError = new Error('plain');
  // @ts-expect-error: a result's error is the SDK's
  const made: PaperResult = { doi: '10.1000/x', error: new TypeError('no') };
  return [
    plain,
    new MetricError('made'),
    ...(result.error ? [result.error] : []),
    ...(made.error ? [made.error] : []),
  ];
}
