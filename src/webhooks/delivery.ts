/** A webhook delivery as a runtime adapter describes it, and the reply the receiver gives it. */

/** The answer to give, before it is written as a Fetch `Response` or onto a Node response. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One request as a runtime adapter describes it to the shared steps. */
export interface Delivery {
  method: string | undefined;
  /** The Content-Length header; a value surely past the cap gets a 413 before anything is read. */
  contentLength: string | null | undefined;
  /** The Content-Encoding header: a gzip or deflate body is decoded before it is parsed. */
  contentEncoding: string | null | undefined;
  /** The W3C `traceparent` header, continued by the delivery's span when valid. */
  traceparent?: unknown;
  /** Something else (a body parser) read the body stream before the handler ran. */
  consumed: boolean;
  /** What that reader left, e.g. Express's `req.body`; `undefined` when it kept nothing. */
  parsed?: unknown;
  /**
   * The body as a stream of bytes (`null`: none), for core's capped, deadlined reader; cancelling it
   * stops the reading and releases the body.
   */
  stream: () => ReadableStream<Uint8Array> | null;
  /** Stops an unread body (cancel or pause) that is too large to read. */
  drop: () => unknown;
}
