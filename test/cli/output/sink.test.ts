import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSink } from '../../../src/cli/output/sink.js';
import { scratch } from '../resume.js';

describe('the --output file', () => {
  it('is cut back to where the run resumes, and counts the bytes it holds, not the characters', async () => {
    const file = join(scratch(), 'out.jsonl');
    writeFileSync(file, 'kept\nhalf-writ');
    const sink = await fileSink(file, 5);
    // Two bytes, four, three (a lone surrogate is written as U+FFFD, as every write of text does).
    const texts = ['é', '😀', '\ud800', `${'x'.repeat(70_000)}\n`];
    for (const text of texts) await sink.write(text);
    await sink.write('');
    await sink.close();
    const written = readFileSync(file);
    expect(written.toString()).toBe(`kept\n${texts.join('').replace('\ud800', '\ufffd')}`);
    expect(sink.bytes).toBe(written.length);
  });
});
