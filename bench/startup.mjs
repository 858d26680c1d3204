// Start-up and one classification, each against a baseline in the same run:
//   `node -e 0`            vs `csafe --version`, `csafe --help`, `csafe classify --help` and `csafe data add --help` (start-up cost)
//   `curl` POST of a body  vs `csafe classify` of the same text, to the same emulator
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, hyperfine, requireTool, startEmulator, tempDir } from './_support.mjs';

requireTool('hyperfine', 'apt-get install hyperfine');
requireTool('curl', 'apt-get install curl');

console.log('Start-up (no network):');
hyperfine([
  ['node -e 0', `${process.execPath} -e 0`],
  ['csafe --version', `${process.execPath} ${BIN} --version`],
  ['csafe --help', `${process.execPath} ${BIN} --help`],
  ['csafe classify --help', `${process.execPath} ${BIN} classify --help`],
  ['csafe data add --help', `${process.execPath} ${BIN} data add --help`],
]);

const emulator = await startEmulator();
try {
  const dir = tempDir();
  const text = join(dir, 'post.txt');
  const body = join(dir, 'body.json');
  writeFileSync(text, 'You are such an idiot, I will kill you.\n');
  writeFileSync(body, JSON.stringify({ content: [{ type: 'text', text: 'You are such an idiot, I will kill you.\n', key: 'post.txt' }], user_id: 'u1' }));
  console.log('\nOne classification against the emulator:');
  hyperfine([
    ['curl POST /v1/content', `curl -sf -o /dev/null -H "Authorization: Bearer ${emulator.api_key}" -H "Content-Type: application/json" -H "Service-Version: 2026-08-11" --data-binary @${body} ${emulator.base_url}/v1/content`],
    ['csafe classify', `${process.execPath} ${BIN} classify ${text} --user-id u1 --json`],
  ], { env: { CSAFE_BASE_URL: emulator.base_url, CSAFE_API_KEY: emulator.api_key, CSAFE_CONFIG_DIR: dir } });
} finally {
  emulator.stop();
}
