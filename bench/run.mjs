// `npm run bench`: runs every bench/*.mjs but this one, one after another.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
for (const file of readdirSync(dir).filter((name) => name.endsWith('.mjs') && name !== 'run.mjs').sort()) {
  console.log(`\n== bench/${file}`);
  const { status } = spawnSync(process.execPath, [dir + file, ...process.argv.slice(2)], { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
