import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { OutputStream } from '../../src/cli/io.js';
import { maskedUrl, redactingStream, Secrets } from '../../src/cli/secrets.js';
import { freePort } from '../helpers/free-port.js';
import { run } from './helpers.js';

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

  it('leave the word that replaced another secret whole, however short one is', () => {
    const secrets = new Secrets();
    secrets.add('e');
    expect(secrets.redact('fetch failed: [redacted] token')).toBe(
      'f[redacted]tch fail[redacted]d: [redacted] tok[redacted]n',
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

  it('hold the API key: a base URL carrying it (a proxy that takes keys in the path) shows it nowhere', async () => {
    const key = 'sk_live_Path+Key/With=Signs_0123456789';
    // A port nothing listens on: the command fails to connect and hints at the base URL.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/${encodeURIComponent(key)}/api/v1`;
    const result = await run(['journals', 'list'], { url, key });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `check --base-url or METRIC_BASE_URL (now: http://127.0.0.1:${port}/[redacted]/api/v1)`,
    );
    for (const form of [key, encodeURIComponent(key)]) expect(result.stderr).not.toContain(form);
  });

  it.each([
    ['as an argument', ['journals', 'get', 'KEY']],
    ['in an unknown option', ['journals', 'list', '--api-key=KEY']],
    ['as an unknown command', ['KEY']],
    ['as an option value', ['papers', 'search', '--year', 'KEY']],
    ['after help', ['help', 'KEY']],
  ])(
    'hold the API key before the line is parsed: one pasted %s is cut from the usage error',
    async (_, args) => {
      const key = 'sk_live_Pasted0123456789abcdef';
      const result = await run(
        args.map((arg) => arg.replace('KEY', key)),
        { url: 'http://127.0.0.1:9/api/v1', key },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('[redacted]');
      expect(result.stderr).not.toContain(key);
    },
  );
});

describe('a URL as a message quotes it', () => {
  it.each([
    ['http://user:s3cr3t-pass@[::1/x?token=tok-9f8e7d', 'http://[redacted]@[::1/x?token=[redacted]'],
    ['s3cr3t-pass@collector:4318', '[redacted]@collector:4318'],
    // No scheme: what stands before the first colon is a user or a token, not a scheme.
    ['glc_SECRETTOKEN:@otel.corp:4318', '[redacted]@otel.corp:4318'],
    ['admin:hunter2@otel.corp:4318/v1', '[redacted]@otel.corp:4318/v1'],
    ['http:/user:s3cr3t-pass@collector:99999/x', 'http:/[redacted]@collector:99999/x'],
    [
      'http://collector:99999/v1?api_key=tok-9f8e7d&b=2#tok-9f8e7d',
      'http://collector:99999/v1?api_key=[redacted]&b=[redacted]#[redacted]',
    ],
    // A `?` inside the query starts a name of its own (so a long run of them costs a linear scan).
    ['http://collector:4318/v1?a?token=tok-9f8e7d', 'http://collector:4318/v1?a?token=[redacted]'],
    // Escaped as every other line the command line writes to stderr.
    ['not a url \u001b[2J\u202e', 'not a url \\e[2J\\u{202E}'],
  ])('a value given as one, %s, is quoted as %s', (value, masked) => {
    expect(maskedUrl(value)).toBe(masked);
  });

  it.each([
    ['a password alone', 'redis://S3cret-pw@127.0.0.1', 'redis://[redacted]@127.0.0.1'],
    ['user and password', 'redis://user:S3cret-pw@127.0.0.1:6379', 'redis://user:[redacted]@127.0.0.1:6379'],
    ['an empty user', 'rediss://:S3cret-pw@127.0.0.1', 'rediss://:[redacted]@127.0.0.1'],
    ['none', 'redis://127.0.0.1:6379/2', 'redis://127.0.0.1:6379/2'],
    [
      'a query and a fragment',
      'redis://user:S3cret-pw@127.0.0.1/0?password=Qu3ry-pw;db=2#Qu3ry-pw',
      'redis://user:[redacted]@127.0.0.1/0?password=[redacted];db=[redacted]#[redacted]',
    ],
    ['an @ in the path', 'redis://127.0.0.1/a@b', 'redis://127.0.0.1/a@b'],
    // Parsed with `user` as its scheme and no host: masked as a value that did not parse.
    ['no //', 'user:S3cret-pw@127.0.0.1:6379', '[redacted]@127.0.0.1:6379'],
  ])('a parsed URL with credentials as %s: its user name kept beside a password', (_, given, masked) => {
    expect(maskedUrl(new URL(given))).toBe(masked);
  });

  it('is cut at 120 characters, never inside an escape', () => {
    const head = 'not a url ';
    expect(maskedUrl(`${head}${'x'.repeat(200)}`)).toBe(`${head}${'x'.repeat(110)}…`);
    expect(maskedUrl(`${head}${'x'.repeat(108)}\u001b[2J`)).toBe(`${head}${'x'.repeat(108)}\\e…`);
    expect(maskedUrl(`${head}${'x'.repeat(109)}\u001b[2J`)).toBe(`${head}${'x'.repeat(109)}…`);
  });
});
