import { rmSync } from 'node:fs';

// Temporary files and directories of this process (an input's spool, an emulator's data) that go
// when it exits, also when it leaves at once: the launcher's process.exit() on a second Ctrl-C or
// SIGTERM skips every `finally`, but not the 'exit' event.

const pending = new Set<string>();
let hooked = false;

/** `path` is removed when the process exits, unless forgetRemoval(path) says it already was. */
export function removeAtExit(path: string): string {
  if (!hooked) process.once('exit', removePendingPaths);
  hooked = true;
  pending.add(path);
  return path;
}

/** `path` was removed (or kept on purpose): nothing to do for it at exit. */
export function forgetRemoval(path: string): void {
  pending.delete(path);
}

function removePendingPaths(): void {
  pending.forEach((each) => rmSync(each, { recursive: true, force: true }));
}
