import { closeSync, openSync, writeSync } from 'node:fs';

/**
 * A JSONL file of data objects of about 1 kB each, with distinct ids, written in 4 MB slabs:
 * 1 GB in a few seconds. Returns the bytes written (a little over `bytes`).
 */
export function writeLargeJsonl(path: string, bytes: number): number {
  const fd = openSync(path, 'w');
  const body = 'lorem ipsum '.repeat(75);
  let written = 0;
  try {
    for (let n = 0; written < bytes; ) {
      let slab = '';
      for (let i = 0; i < 4_000; i++, n++) slab += `{"id":"obj_${n}","title":"listing ${n}","body":"${body}"}\n`;
      written += writeSync(fd, slab);
    }
  } finally {
    closeSync(fd);
  }
  return written;
}
