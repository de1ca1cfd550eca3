/**
 * Checkpoints an earlier release (0.4) wrote: they record the command as it was typed, with no
 * `--format` unless one was typed, and `papers search`'s words and `--query` as given, where this
 * release records the format the file is written in and the one search term as `--q`.
 */

/** Whether a part of a recorded command is an option (`--name=json`), not a word. */
export const isOption = (part: string) => part.startsWith('--');

/** Whether `saved` is an earlier release's: this release always records the file's format. */
export const isEarlierCheckpoint = (saved: readonly string[]) =>
  !saved.some((part) => part.startsWith('--format='));

/** An earlier release's command spelled as this release spells it: one search term, as `--q`. */
function respelled(saved: readonly string[]): string[] {
  const parts = saved.map((part) =>
    part.startsWith('--query=') ? `--q=${part.slice('--query='.length)}` : part,
  );
  if (parts[0] !== 'papers' || parts[1] !== 'search') return parts;
  const words = parts.slice(2).filter((part) => !isOption(part));
  if (words.length === 0) return parts;
  const options = parts.filter(isOption);
  const given = options.find((part) => part.startsWith('--q='));
  const term = [given === undefined ? undefined : (JSON.parse(given.slice(4)) as string), ...words];
  const q = `--q=${JSON.stringify(term.filter((part) => part !== undefined && part !== '').join(' '))}`;
  return ['papers', 'search', ...options.filter((part) => part !== given), q];
}

/** `command`'s words in order and its options in any order, as one text to compare. */
export function commandKey(command: readonly string[]): string {
  return JSON.stringify([...command.filter((part) => !isOption(part)), ...command.filter(isOption).sort()]);
}

/**
 * Whether an earlier release's checkpoint is of the command `typed` (this run's, its format recorded
 * only when typed, as that release recorded it).
 */
export function isEarlierCheckpointOf(saved: readonly string[], typed: readonly string[]): boolean {
  return commandKey(respelled(saved)) === commandKey(typed);
}
