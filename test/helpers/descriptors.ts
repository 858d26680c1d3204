import { existsSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';

/** Whether this process's open descriptors can be listed (Linux's /proc/self/fd). */
export const canListDescriptors = existsSync('/proc/self/fd');

/**
 * How many descriptors this process holds open on `path`: a count no socket or pipe the test
 * opens meanwhile can change, unlike the number of descriptors in all.
 */
export function descriptorsOn(path: string): number {
  const target = realpathSync(path);
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === target) count++;
    } catch {
      // The descriptor that listed the folder, closed by now.
    }
  }
  return count;
}
