/**
 * A small seeded pseudo-random generator (mulberry32): fast, dependency-free and identical on every
 * runtime, so the same seed always yields the same dataset and the same fault sequence.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both ends included. */
  int(min: number, max: number): number;
  /** An element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** `true` with the given probability. */
  chance(probability: number): boolean;
}

/**
 * Creates a {@link Random} from a seed, any safe integer. A seed in 0..2^32-1 gives plain mulberry32;
 * the bits above those 32 are mixed into every draw, so that 42 and 2^32 + 42 give different streams.
 */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const high = highBits(seed);
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state ^ high;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
    chance: (probability) => next() < probability,
  };
}

/** Mixes a seed with a number into a new 32-bit seed, for independent per-item streams. */
export function deriveSeed(seed: number, salt: number): number {
  return scramble((seed ^ highBits(seed) ^ Math.imul(salt, 0x9e3779b1)) >>> 0);
}

/**
 * The seed's bits above the low 32 (`floor(seed / 2^32)`, negative for a negative seed), scrambled:
 * 0 for seeds in 0..2^32-1, which draw exactly as they always did, and two safe-integer seeds with the
 * same low bits differ here.
 */
function highBits(seed: number): number {
  return scramble(Math.floor(seed / 4294967296) >>> 0);
}

/** MurmurHash3's finaliser: a bijection of 32-bit words that spreads every bit, and keeps 0 at 0. */
function scramble(word: number): number {
  let h = word;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
