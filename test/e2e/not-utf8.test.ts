import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir, useEmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

// A line whose bytes are not UTF-8 (a Latin-1 file, a cut multi-byte character) is refused by
// every command that reads JSON records, naming its line and column: read as UTF-8 it would reach
// the service with U+FFFD in place of what the file holds.

describe('a file that is not UTF-8', () => {
  const emulator = useEmulatorProcess();
  const dir = tempDir();
  const file = (name: string, second: string) => {
    const path = join(dir, name);
    writeFileSync(path, Buffer.concat([Buffer.from(`${second.replace('\u00e9', 'e')}\n`), Buffer.from(`${second}\n`, 'latin1')]));
    return path;
  };
  const cases: Array<[string, (path: string) => string[]]> = [
    ['{"id":"a","title":"café"}', (path) => ['data', 'add', 'listings', path]],
    ['{"id":"a","title":"café"}', (path) => ['data', 'import', 'listings', path]],
    ['{"type":"create_account","event_name":"café","timestamp":"2026-11-01T10:00:00Z","user_id":"u1"}', (path) => ['events', 'send', path]],
    ['{"text":"café"}', (path) => ['classify', '--user-id', 'u1', '--batch', path]],
    ['{"type":"chat_message","sender_display_name":"A","sender_id":"u1","text":"café","timestamp":"2026-11-01T10:00:00Z"}', (path) => ['stream', 'parts', 'games', path, '--id', 's1']],
  ];
  for (const [line, argv] of cases) {
    const command = argv('FILE').join(' ');
    it(`csafe ${command}: exit 2 naming line 2 and the column, nothing sent`, async () => {
      const path = file(`${command.replace(/\W+/g, '-')}.jsonl`, line);
      const before = (await emulator.requests()).length;
      const args = argv(path);
      const result = await runInProcess(args, { env: emulator.env });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, new RegExp(`${path}:2: not UTF-8 at column ${line.indexOf('\u00e9') + 1}: csafe reads UTF-8 text; convert the file, e\\.g\\. iconv -f latin1 -t utf-8`));
      assert.equal((await emulator.requests()).length, before);
    });
  }
});
