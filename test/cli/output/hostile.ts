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
