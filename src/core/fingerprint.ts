/** Marks the end of an array or object on the walk's stack. */
class Close {
  constructor(readonly text: string) {}
}
/** Marks an object key on the walk's stack. */
class Key {
  constructor(readonly name: string) {}
}

/** How much of a value a fingerprint keeps: enough to tell pages apart, bounded whatever the item. */
const maxLength = 4096;

/**
 * A JSON-like rendering of `value`, cut at {@link maxLength} characters, built without recursion: a
 * page item nested thousands deep cannot overflow the stack, and a huge one costs no more than the cut.
 */
export function fingerprint(value: unknown): string {
  let out = '';
  const stack: unknown[] = [value];
  while (stack.length > 0 && out.length < maxLength) {
    const item = stack.pop();
    if (item instanceof Close) out += `${item.text},`;
    else if (item instanceof Key) out += `${JSON.stringify(item.name)}:`;
    else if (Array.isArray(item)) {
      out += '[';
      stack.push(new Close(']'));
      for (let i = Math.min(item.length, maxLength) - 1; i >= 0; i--) stack.push(item[i]);
    } else if (item !== null && typeof item === 'object') {
      out += '{';
      stack.push(new Close('}'));
      const entries = Object.entries(item);
      for (let i = Math.min(entries.length, maxLength) - 1; i >= 0; i--)
        stack.push(entries[i]![1], new Key(entries[i]![0]));
    } else out += `${typeof item === 'string' ? JSON.stringify(item) : String(item)},`;
  }
  return out.slice(0, maxLength);
}
