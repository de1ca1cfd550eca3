import { vi } from 'vitest';

/**
 * Runs `check` again until it passes, for a state a real part (Redis, a socket, a child process)
 * reaches in its own time: a loaded machine is waited for rather than failed, and short steps keep a
 * quick one from being slowed.
 */
export const eventually = <T>(check: () => T | Promise<T>): Promise<T> =>
  vi.waitFor(check, { timeout: 20_000, interval: 20 });
