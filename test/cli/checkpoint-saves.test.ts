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

  it('a clock set back saves the next page at once, not when the clock catches up', async () => {
    useFakeClock({ date: false });
    let now = 3_600_000;
    const file = join(scratch(), 'out.jsonl.checkpoint.json');
    const saves = new CheckpointSaves(file, nullSink(), () => now, 1000);
    const saved = () => (JSON.parse(readFileSync(file, 'utf8')) as Checkpoint).position;
    await saves.note(at(1));
    now = 10; // an hour back
    await saves.note(at(2));
    expect(saved()).toBe(2);
    now = 2000;
    await saves.note(at(3));
    expect(saved()).toBe(3);
    saves.stop();
  });

  it('writes one checkpoint at a time, in the order saved: a slow earlier write never lands after a later one', async () => {
    // The interval's save under way when the harvest saves its end: were the end to land first, the
    // file would say the run is unfinished, and the next --resume would ask for its last pages again.
    const landed: number[] = [];
    let releaseFirst = () => {};
    const write = (_file: string, checkpoint: Checkpoint) =>
      checkpoint.position === 1
        ? new Promise<void>((resolve) => {
            releaseFirst = () => {
              landed.push(1);
              resolve();
            };
          })
        : Promise.resolve().then(() => {
            landed.push(checkpoint.position);
          });
    const saves = new CheckpointSaves('out.checkpoint.json', nullSink(), () => 0, 1000, write);
    const interval = saves.save(at(1));
    const end = saves.save({ ...at(2), complete: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect(landed).toEqual([]);
    releaseFirst();
    await Promise.all([interval, end]);
    expect(landed).toEqual([1, 2]);
  });

  it('a write that failed holds up none after it', async () => {
    const landed: number[] = [];
    const write = async (_file: string, checkpoint: Checkpoint) => {
      if (checkpoint.position === 1) throw new Error('disk full');
      landed.push(checkpoint.position);
    };
    const saves = new CheckpointSaves('out.checkpoint.json', nullSink(), () => 0, 1000, write);
    await expect(saves.save(at(1))).rejects.toThrow('disk full');
    await saves.save(at(2));
    expect(landed).toEqual([2]);
  });

  it('a failed save is noted again only while nothing later was noted or saved: it never takes the checkpoint back', async () => {
    useFakeClock({ date: false });
    let now = 0;
    const landed: string[] = [];
    let failInterval = () => {};
    const write = (_file: string, checkpoint: Checkpoint) =>
      checkpoint.position === 2
        ? new Promise<void>((_, reject) => {
            failInterval = () => reject(new Error('disk full'));
          })
        : Promise.resolve().then(() => {
            landed.push(`${checkpoint.position}${checkpoint.complete ? ' complete' : ''}`);
          });
    const saves = new CheckpointSaves('out.checkpoint.json', nullSink(), () => now, 1000, write);
    await saves.note(at(1));
    now = 100;
    await saves.note(at(2));
    // The interval's save of page 2 under way, then the harvest's end queued behind it; the first fails.
    now = 1000;
    vi.advanceTimersByTime(900);
    await new Promise((resolve) => setImmediate(resolve));
    const end = saves.save({ ...at(0), complete: true });
    failInterval();
    await end;
    await saves.settled();
    expect(landed).toEqual(['1', '0 complete']);
    // Nothing left for close() to save over the end.
    expect(saves.unsaved).toBeUndefined();
    // With nothing after it, a failed save nobody waited for is noted again: close() saves it, or
    // says it could not.
    const alone = new CheckpointSaves(
      'out.checkpoint.json',
      nullSink(),
      () => 0,
      1000,
      async () => {
        throw new Error('disk full');
      },
    );
    // A save a caller waited for is the caller's to report; one nobody waited for is noted again.
    await alone.save(at(3)).catch(() => {});
    expect(alone.unsaved).toBeUndefined();
    // Within the interval: noted, not saved; then the background save fails, and it is noted again.
    await alone.note(at(4));
    alone.stop();
    await alone.saveNoted();
    expect(alone.unsaved?.position).toBe(4);
  });

  it('settled() waits for a save under way, which unsaved no longer shows', async () => {
    let release = () => {};
    const landed: number[] = [];
    const write = (_file: string, checkpoint: Checkpoint) =>
      new Promise<void>((resolve) => {
        release = () => {
          landed.push(checkpoint.position);
          resolve();
        };
      });
    const saves = new CheckpointSaves('out.checkpoint.json', nullSink(), () => 0, 1000, write);
    void saves.save(at(1));
    await new Promise((resolve) => setImmediate(resolve));
    expect(saves.unsaved).toBeUndefined();
    let settled = false;
    const waiting = saves.settled().then(() => {
      settled = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    release();
    await waiting;
    expect(landed).toEqual([1]);
  });
});
