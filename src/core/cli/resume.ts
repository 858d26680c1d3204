import type { IOStreams } from '../terminal/io.js';

/** ` (in FILE)` after the count of failed records an interrupted run names; nothing when none failed. */
export const failedFileNote = (failed: number, path: string) => (failed > 0 ? ` (in ${path})` : '');

/** What an interrupted bulk run prints on stderr: what it did, then the command that continues it, and a hint when there is one. */
export function reportInterruption(io: IOStreams, done: string, resume: string, hint?: string): void {
  io.warn(`interrupted: ${done}`);
  io.warn(`continue with: ${resume}`);
  if (hint !== undefined) io.warn(`hint: ${hint}`);
}
