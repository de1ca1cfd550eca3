/**
 * The latest events a relay sent, for clients that come back with `Last-Event-ID`: a ring of at most
 * `size` frames, so that memory stays bounded however many events pass.
 *
 * Ids are `<epoch>.<sequence>`. The epoch is new with each relay, so an id from another process (or
 * from before a restart) is recognised as unknown instead of being taken for one of this relay's.
 */
export interface Replay {
  /** The id of the next event. */
  nextId(): string;
  /** Keeps the frame of the event whose id `nextId` last gave. */
  keep(frame: Uint8Array): void;
  /**
   * The frames sent after `lastId`, oldest first (none when the id is absent: a new stream); or
   * `undefined` when some of them are gone: the id is older than the ring, from another relay (or
   * before a restart) or not an id at all.
   */
  after(lastId: string | null): Uint8Array[] | undefined;
  /** The id of the latest event (`<epoch>.0` before the first): where a client that missed some now is. */
  lastId(): string;
  clear(): void;
}

export function createReplay(size: number): Replay {
  const epoch = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  let frames: (Uint8Array | undefined)[] = [];
  let sequence = 0;
  return {
    nextId: () => `${epoch}.${++sequence}`,
    keep(frame) {
      if (size > 0) frames[sequence % size] = frame;
    },
    after(lastId) {
      if (lastId === null) return [];
      const match = /^([0-9a-z]+)\.(\d{1,15})$/.exec(lastId);
      if (match === null || match[1] !== epoch) return undefined;
      const seen = Number(match[2]);
      // Older than what the ring holds: the client missed events that are gone.
      if (seen > sequence || seen < sequence - size) return undefined;
      const missed: Uint8Array[] = [];
      for (let n = seen + 1; n <= sequence; n++) {
        const frame = frames[n % size];
        if (frame !== undefined) missed.push(frame);
      }
      return missed;
    },
    lastId: () => `${epoch}.${sequence}`,
    clear() {
      frames = [];
    },
  };
}
