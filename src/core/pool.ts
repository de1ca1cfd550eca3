/**
 * Runs `task` once per item, at most `limit` at a time, starting the items in their order.
 *
 * The run stops at the first of: a task that throws, or `controller` aborting from outside (the
 * caller links it to a user's signal). Stopping aborts `controller` with the error (so the tasks in
 * flight, which listen to its signal, end at once), starts no further item, and waits for every task
 * already started to settle before rejecting with the first reason: nothing the run began is still
 * running, or rejecting unheard, when its promise settles. Errors of tasks that fail because of the
 * stop are dropped; the first reason is the one that matters.
 *
 * The controller's `signal.reason` is the record of that first reason, so an outside abort and a
 * failing task cannot both claim it.
 */
export async function runPool<T>(
  items: readonly T[],
  limit: number,
  controller: AbortController,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  const { signal } = controller;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !signal.aborted) {
      const index = next++;
      try {
        await task(items[index]!, index);
      } catch (error) {
        if (!signal.aborted) controller.abort(error);
      }
    }
  };
  const workers = Array.from({ length: Math.min(limit, items.length) }, worker);
  await Promise.all(workers);
  if (signal.aborted) throw signal.reason;
}
