// One release, one version: package.json, the lockfile, the CHANGELOG's newest dated section, and the
// constant every stamp derives from (User-Agent, --version, telemetry's scope, the cache's entries).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cacheParts } from '../../src/cache/client-cache.js';
import { encodeEntry } from '../../src/cache/entry.js';
import { userAgent, VERSION } from '../../src/core/user-agent.js';
import { run } from '../cli/helpers.js';

const root = new URL('../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');
const packageVersion: string = JSON.parse(read('package.json')).version;

describe('one version', () => {
  it('package.json, the lockfile and the SDK agree', () => {
    const lock = JSON.parse(read('package-lock.json'));
    expect(VERSION).toBe(packageVersion);
    expect(lock.version).toBe(packageVersion);
    expect(lock.packages[''].version).toBe(packageVersion);
  });

  it("the CHANGELOG's newest release is this version, dated, with every release dated", () => {
    const headings = [...read('CHANGELOG.md').matchAll(/^## \[([^\]]+)\](.*)$/gm)];
    const releases = headings.filter(([, name]) => name !== 'Unreleased');
    expect(releases[0]?.[1]).toBe(packageVersion);
    for (const [heading, , rest] of releases) expect(rest, heading).toMatch(/^ - \d{4}-\d{2}-\d{2}$/);
    // An [Unreleased] section may only stand first.
    const unreleased = headings.findIndex(([, name]) => name === 'Unreleased');
    expect(unreleased === -1 || unreleased === 0).toBe(true);
  });

  it('--version, the User-Agent and the cache entries say it', async () => {
    expect((await run(['--version'])).stdout.trim()).toBe(packageVersion);
    expect(userAgent()).toContain(`scholarly-metrics/${packageVersion} `);
    // Stamped with the version the cache's loader hands it.
    const entry = encodeEntry(new Response('{}', { status: 200 }), '{}', 'p', 0, 1, cacheParts.VERSION);
    expect(JSON.parse(entry.split('\n')[0]!).v).toBe(packageVersion);
  });
});
