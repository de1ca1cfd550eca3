/**
 * A time limit of `ms`, started now: `race(work)` settles as `work` does or, once the time is up,
 * with what `late()` returns (or throws). One timer serves every race, so a read of many chunks is
 * bounded in all; `clear()` stops it, and a race the work won never calls `late`.
 */
export function timeLimit<Late = never>(ms: number, late: () => Late) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const up = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return {
    race: <T>(work: T | PromiseLike<T>): Promise<T | Late> => Promise.race([work, up.then(late)]),
    clear: () => clearTimeout(timer),
  };
}
