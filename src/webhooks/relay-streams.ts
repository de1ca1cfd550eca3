import { MetricError } from '../core/errors.js';
import { encoder } from './encoder.js';

/** One open stream. */
interface Client {
  readonly controller: ReadableStreamDefaultController<Uint8Array>;
  /** What its reader has not taken yet, oldest first: the greeting and the replay, then the messages. */
  readonly waiting: Uint8Array[];
  /**
   * How many at the head of `waiting` are the greeting and the replay, which it asked for: the others
   * are messages it left unread, which count against the bound.
   */
  asked: number;
  /** Whether its reader waits for the next message (the stream asked, and nothing was waiting). */
  reading: boolean;
  /** Stops listening to the request's abort signal. */
  detach(): void;
}

const ping = /* @__PURE__ */ encoder.encode(': ping\n\n');
// The first bytes go out at once, so that Node (and proxies) send the headers without waiting for an event.
const hello = /* @__PURE__ */ encoder.encode(': connected\n\n');

/**
 * The greeting of a stream that asked for nothing, with the id the relay is at: an `id` without `data`
 * sets the `EventSource`'s last id and dispatches no event, so a page back before its first event still
 * asks for what it missed.
 */
function helloAt(id: string): Uint8Array {
  return encoder.encode(`: connected\nid: ${id}\n\n`);
}

/**
 * A relay's open streams: what each may hold, the heartbeat they share, and their ends. Every stream's
 * queue counts messages; a stream past `maxBufferedEvents` is looked at again once the events
 * published in the same turn are queued, and dropped if its client has still not read them. So a
 * burst published at once reaches every client that reads, and a client that stops reading costs a
 * bounded amount (the bound, plus one burst), never a growing queue.
 */
export class EventStreams {
  readonly #open = new Set<Client>();
  readonly #heartbeatMs: number;
  readonly #maxBufferedEvents: number;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  /** Set while a stream is past the bound: the timer that looks at the streams again after this turn. */
  #recheck: ReturnType<typeof setTimeout> | undefined;

  constructor(settings: { heartbeatMs: number; maxBufferedEvents: number }) {
    this.#heartbeatMs = settings.heartbeatMs;
    this.#maxBufferedEvents = settings.maxBufferedEvents;
  }

  get size(): number {
    return this.#open.size;
  }

  /**
   * A new stream for `request`, greeted with `startId` (for a stream that asked for nothing) and then
   * `replayed` (the frames it missed); it ends when the request is aborted.
   */
  open(request: Request, replayed: readonly Uint8Array[], startId?: string): ReadableStream<Uint8Array> {
    let client: Client | undefined;
    const { signal } = request;
    const onAbort = () => client && this.#drop(client);
    // Listened to before the stream takes a place: a request whose signal cannot be listened to
    // (a request-like object) throws here, and leaves no stream counted and no heartbeat running.
    if (!signal.aborted) signal.addEventListener('abort', onAbort, { once: true });
    // Each stream keeps its own queue and hands the reader one frame each time it asks: what a client
    // left unread is counted exactly, apart from the greeting and the replay, and no chunk needs a
    // size of 0 to go uncounted (a runtime may hold such a chunk back: workerd does).
    const stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          // `request` held for the stream's life: Node's fetch has a request's signal follow the
          // caller's abort only while that request is alive, and the server may have let go of it.
          client = {
            controller,
            // At most `replayEvents` frames, each shared with every other stream.
            waiting: [startId === undefined ? hello : helloAt(startId), ...replayed],
            asked: 1 + replayed.length,
            reading: false,
            detach: () => request.signal.removeEventListener('abort', onAbort),
          };
          this.#add(client);
        },
        pull: () => {
          if (client) handOver(client);
        },
        cancel: () => {
          if (client) this.#remove(client);
        },
      },
      { highWaterMark: 0 },
    );
    if (signal.aborted) onAbort();
    return stream;
  }

  /** Queues `frame` for every stream; returns how many took it (the others were dropped). */
  broadcast(frame: Uint8Array): number {
    let sent = 0;
    for (const client of [...this.#open]) if (this.#send(client, frame)) sent++;
    return sent;
  }

  /** Ends every stream; what they hold is still delivered. */
  endAll(): void {
    for (const client of [...this.#open]) {
      if (!this.#remove(client)) continue;
      quietly(() => {
        for (const frame of client.waiting.splice(0)) client.controller.enqueue(frame);
        client.controller.close();
      });
    }
  }

  #add(client: Client): void {
    this.#open.add(client);
    this.#heartbeat ??= setInterval(() => this.broadcast(ping), this.#heartbeatMs);
  }

  #remove(client: Client): boolean {
    if (!this.#open.delete(client)) return false;
    client.detach();
    // No timer while nobody listens: an idle relay keeps no process alive.
    if (this.#open.size === 0 && this.#heartbeat !== undefined) {
      clearInterval(this.#heartbeat);
      this.#heartbeat = undefined;
    }
    return true;
  }

  /**
   * Ends a stream: with an error for a client dropped (`reason`), which also frees what it held; with
   * a close for a page that went away, since a server that pipes the body (Hono's node-server) logs a
   * stream that errors.
   */
  #drop(client: Client, reason?: MetricError): void {
    if (this.#remove(client))
      quietly(() => (reason ? client.controller.error(reason) : client.controller.close()));
  }

  #send(client: Client, frame: Uint8Array): boolean {
    if (client.controller.desiredSize === null) {
      this.#remove(client);
      return false;
    }
    client.waiting.push(frame);
    if (client.reading) handOver(client);
    if (isOver(client, this.#maxBufferedEvents)) this.#recheck ??= setTimeout(() => this.#dropUnread(), 0);
    return true;
  }

  /** Drops each stream still past the bound: its client did not read what the last turn queued. */
  #dropUnread(): void {
    this.#recheck = undefined;
    const message = `the client was dropped: ${this.#maxBufferedEvents} messages were waiting for it`;
    for (const client of [...this.#open])
      if (isOver(client, this.#maxBufferedEvents)) this.#drop(client, new MetricError(message));
  }
}

/** Whether a client left more messages unread than `bound`. */
function isOver(client: Client, bound: number): boolean {
  return client.waiting.length - client.asked > bound;
}

/** Gives the reader the oldest frame waiting, or notes that it waits for the next one. */
function handOver(client: Client): void {
  const frame = client.waiting.shift();
  client.reading = frame === undefined;
  if (frame === undefined) return;
  if (client.asked > 0) client.asked--;
  client.controller.enqueue(frame);
}

/** A stream the consumer already cancelled or errored throws on close/error: there is nothing to end. */
function quietly(run: () => void): void {
  try {
    run();
  } catch {
    // Already ended.
  }
}
