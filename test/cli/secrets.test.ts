import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { OutputStream } from '../../src/cli/io.js';
import { redactingStream, Secrets } from '../../src/cli/secrets.js';

describe("the run's secrets on stderr", () => {
  it('are cut by the SDK redactor, however encoded, with its one word', () => {
    const secrets = new Secrets();
    secrets.add('S3cret%2Dp%40w');
    secrets.add('');
    const text =
      'raw S3cret%2Dp%40w, decoded S3cret-p@w, lower-case escapes S3cret%2dp%40w, JSON S3cret\\u002dp@w';
    expect(secrets.redact(text)).toBe(
      'raw [redacted], decoded [redacted], lower-case escapes [redacted], JSON [redacted]',
    );
  });

  it('are cut from every write to the wrapped stream, which keeps its terminal facts', () => {
    const secrets = new Secrets();
    secrets.add('hunter2-password');
    const target = Object.assign(new PassThrough(), { isTTY: true, columns: 77 });
    const stderr = redactingStream(target as unknown as OutputStream, secrets);
    stderr.write('error: cannot connect with hunter2-password\n');
    expect(String(target.read())).toBe('error: cannot connect with [redacted]\n');
    expect([stderr.isTTY, stderr.columns]).toEqual([true, 77]);
  });
});
