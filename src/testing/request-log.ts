import type { MockRequestRecord } from './mock-api-types.js';

const requestLogLimit = 1000;

/** The mock's record of the API requests it answered, and the ids their answers carry. */
export class RequestLog {
  /** The last 1,000 API requests, oldest first. */
  readonly records: MockRequestRecord[] = [];
  // Kept across clear(): an id names one request over the mock's whole life, so a log line written
  // before a reset never points at a request made after it.
  #count = 0;

  /** `req_000001`, `req_000002`, …: the id of the next request. */
  nextId(): string {
    return `req_${String(++this.#count).padStart(6, '0')}`;
  }

  add(request: Request, url: URL, response: Response, requestId: string): void {
    if (this.records.length >= requestLogLimit) this.records.shift();
    this.records.push({
      method: request.method,
      path: url.pathname + url.search,
      status: response.status,
      requestId: response.headers.get('x-request-id') ?? requestId,
    });
  }

  clear(): void {
    this.records.length = 0;
  }
}
