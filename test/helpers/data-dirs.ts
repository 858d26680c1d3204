import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './cli.js';

/** Last written an hour ago: older than any live emulator's temporary file, so start-up may take it for a leftover. */
export function makeOld(path: string): void {
  const hourAgo = new Date(Date.now() - 60 * 60_000);
  utimesSync(path, hourAgo, hourAgo);
}

/** A directory of the user's own, not the emulator's: a project's `uploads/thesis.docx` and an hour-old download `x.part`. */
export function userDirectory(): string {
  const dir = tempDir('csafe-user-');
  mkdirSync(join(dir, 'uploads'));
  writeFileSync(join(dir, 'uploads', 'thesis.docx'), 'chapter 1');
  writeFileSync(join(dir, 'x.part'), 'a download under way');
  makeOld(join(dir, 'x.part'));
  return dir;
}
