/** The glue between commander and a command's code: the context is made once the line has parsed. */
import { Command, type OptionValues } from 'commander';
import { inCommandSpan } from './command-span.js';
import { type Context, createContext, type RunIO } from './context.js';
import { checkOutputUsage } from './output-usage.js';

/** The root command of a run: it holds the run's IO, which every command's context takes. */
export class Program extends Command {
  constructor(
    name: string,
    readonly io: RunIO,
  ) {
    super(name);
  }
}

/** The IO of the run `command` belongs to. */
export function ioOf(command: Command): RunIO {
  let root = command;
  while (root.parent) root = root.parent;
  if (!(root instanceof Program)) throw new Error('a command outside a Program has no IO');
  return root.io;
}

export type Action<O extends OptionValues> = (
  context: Context,
  options: O,
  args: string[],
  command: Command,
) => Promise<void>;

/** A commander action running `fn` with the context, the command's own options and its arguments. */
export function act<O extends OptionValues>(fn: Action<O>): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    const command = args.at(-1) as Command;
    const io = ioOf(command);
    // The command's span holds all it does, the Redis connection and the client's calls included.
    await inCommandSpan(io.telemetry, command, io.signal, async () => {
      checkOutputUsage(command.opts());
      const context = await createContext(command, io);
      try {
        // The first Ctrl-C ends every command at once, whatever it awaits; a walk's checkpoint is
        // replaced whole or not at all, so what it holds stays true.
        await untilAborted(fn(context, command.opts<O>(), command.args, command), context);
      } finally {
        // A command given up after Ctrl-C (see untilAborted) has not erased its own line.
        context.progress.clear();
        // Also on an error or Ctrl-C: an open Redis connection would keep the process from exiting.
        await context.close();
      }
    });
  };
}

/** How long a command may take to wind down after Ctrl-C (erase its progress line, close its file). */
const windDownMs = 1_000;

/**
 * Settles as `work` does or, once the signal aborts, rejects with its reason after `work` has wound
 * down or `windDownMs` have passed, whichever comes first (a walk stops at once; a lone request may
 * not). A command whose output was already whole when it wound down settles as `work` does: the
 * Ctrl-C came too late to stop any of it, and a hint to resume would send the user after nothing.
 */
function untilAborted<T>(work: Promise<T>, { signal, isComplete }: Context): Promise<T> {
  const stopped = () => signal.aborted && !isComplete();
  const settled = work.then(
    () => {},
    () => {},
  );
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      const timer = setTimeout(() => reject(signal.reason), windDownMs);
      void settled.then(() => {
        clearTimeout(timer);
        if (stopped()) reject(signal.reason);
      });
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    // Once aborted, the run ends as stopped (130) whatever the work settles with meanwhile, unless
    // its output was whole by then.
    work
      .then(
        (value) => stopped() || resolve(value),
        (error: unknown) => stopped() || reject(error),
      )
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The `Example:` block of a command's help, as gh prints it. */
export function examples(command: Command, ...lines: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`);
}
