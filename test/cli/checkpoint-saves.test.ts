import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Checkpoint } from '../../src/cli/checkpoint.js';
import { CheckpointSaves } from '../../src/cli/checkpoint-saves.js';
import { nullSink } from '../../src/cli/output/sink.js';
import { useFakeClock } from '../helpers/fake-clock.js';
import { scratch } from './resume.js';

const at = (position: number): Checkpoint => ({
  command: ['papers', 'search'],
  bytes: position * 100,
  writer: { count: position * 10 },
  position,
  complete: false,
});

describe('CheckpointSaves', () => {
  it('saves the pages that came within the interval once it is over, with no page after them', async () => {
    useFakeClock({ date: false });
    let now = 0;
    const file = join(scratch(), 'out.jsonl.checkpoint.json');
    const saves = new CheckpointSaves(file, nullSink(), () => now, 1000);
    const saved = () => (JSON.parse(readFileSync(file, 'utf8')) as Checkpoint).position;
    await saves.note(at(1));
    expect(saved()).toBe(1);
    now = 100;
    await saves.note(at(2));
    now = 200;
    await saves.note(at(3));
    // A burst, then the quota holds the walk: no page comes to save them.
    expect(saved()).toBe(1);
    expect(saves.unsaved?.position).toBe(3);
    now = 1000;
    vi.advanceTimersByTime(900);
    await vi.waitFor(() => expect(saved()).toBe(3));
    expect(saves.unsaved).toBeUndefined();
    // After stop(), the harvest's own saves are the only ones.
    now = 1100;
    await saves.note(at(4));
    saves.stop();
    vi.advanceTimersByTime(5000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(saved()).toBe(3);
    expect(saves.unsaved?.position).toBe(4);
  });
});
