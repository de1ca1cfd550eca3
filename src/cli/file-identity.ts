/**
 * Which file a path names, through its links: two names for one file (a symbolic link, one to a file
 * not made yet, a hard link) are one file to every check that keeps the command's files apart.
 */
import { readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * The file `path` writes to: where its links lead (a link to a file not made yet included), so that
 * two names for one file are seen as one.
 */
export function fileOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return resolve(dirname(path), readlinkSync(path));
    } catch {
      return resolve(path);
    }
  }
}

/** Whether `a` and `b` name one file: one path through their links, or (both there) one inode. */
export function oneFile(a: string, b: string): boolean {
  if (fileOf(a) === fileOf(b)) return true;
  try {
    const [first, second] = [statSync(a), statSync(b)];
    return first.dev === second.dev && first.ino === second.ino;
  } catch {
    return false;
  }
}
