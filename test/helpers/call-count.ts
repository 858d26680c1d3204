// Loaded with `node --import` (in NODE_OPTIONS): counts the process's calls of JSON.parse and of
// node:crypto's hash(), and writes them as JSON to the file CSAFE_CALL_COUNT names when it exits,
// so a test can say how often a command parsed or hashed, whatever the machine's speed.
import crypto from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

export interface CallCounts {
  parse: number;
  hash: number;
}

const counts: CallCounts = { parse: 0, hash: 0 };
const { parse } = JSON;
JSON.parse = (...args: Parameters<typeof JSON.parse>) => {
  counts.parse++;
  return parse(...args) as unknown;
};
const { hash } = crypto;
crypto.hash = ((...args: Parameters<typeof hash>) => {
  counts.hash++;
  return hash(...args);
}) as typeof hash;
// `import { hash } from 'node:crypto'` sees the counting one too.
syncBuiltinESMExports();
process.on('exit', () => {
  const file = process.env.CSAFE_CALL_COUNT;
  if (file !== undefined) writeFileSync(file, JSON.stringify(counts));
});
