// `npm run bench`: runs every bench/*.mjs (except this file) in turn. Not part of `npm test`.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs' && !f.startsWith('_'))
  .filter((f) => only.length === 0 || only.some((name) => f.includes(name)));
let failed = 0;
for (const bench of benches) {
  console.log(`\n## ${bench}\n`);
  const { status } = spawnSync(process.execPath, [dir + bench], { stdio: 'inherit' });
  if (status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
