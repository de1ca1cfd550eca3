import { expect } from 'vitest';

/** Each sequence a server could send to act on the terminal, as issue 21 found them. */
export const hostile = {
  clear: '\u001b[2J\u001b[H',
  osc8: '\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007',
  osc52: '\u001b]52;c;ZXZpbA==\u0007',
  title: '\u001b]0;pwned\u0007',
  csi8bit: '\u009b31m',
  backspace: 'abc\b\b\bxyz',
  del: 'a\u007fb',
  rlo: '\u202egnp.exe',
  isolate: '\u2066x\u2069',
  nul: 'a\u0000b',
};

/** A file name that writes the clipboard (OSC 52) on a terminal that shows it raw. */
export const clipboardName = `evil${hostile.osc52}.jsonl`;

/** `clipboardName` as every message that echoes it shows it: escaped, plain ASCII. */
export const clipboardNameShown = 'evil\\e]52;c;ZXZpbA==\\x07.jsonl';

/** Checks that `text` echoes `clipboardName` escaped, and holds no ESC or BEL a terminal would act on. */
export function expectNameEscaped(text: string): void {
  expect(text).toContain(clipboardNameShown);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them
  expect(text).not.toMatch(/[\u001b\u0007\u009b]/);
}
