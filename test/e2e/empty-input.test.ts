import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir, useEmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

/** No silent no-ops. Every empty input is exit 2 with one line naming it, and nothing reaches the service. */

const FILES: Record<string, string> = {
  'empty.txt': '',
  'blank.txt': ' \n\t\n',
  'blank.jsonl': '\n  \n\r\n',
  'empty.json': '',
  'header.csv': 'Content,source\n',
  'nocues.vtt': 'WEBVTT\n\n',
};

interface EmptyCase {
  args: string[];
  stdin?: string;
  message: RegExp;
}

const CASES: EmptyCase[] = [
  { args: ['classify', 'empty.txt'], message: /^empty\.txt: is empty, expected/ },
  { args: ['classify', 'blank.txt'], message: /^blank\.txt: holds only white space, expected/ },
  { args: ['classify', '-'], stdin: '', message: /^stdin: is empty, expected/ },
  { args: ['classify', '-'], stdin: '\n \n', message: /^stdin: holds only white space, expected/ },
  { args: ['classify', '--text', ''], message: /^--text: is empty, expected the text to classify/ },
  { args: ['classify', '--text', '  \n'], message: /^--text: holds only white space, expected the text to classify/ },
  { args: ['classify', '--text', 'fine', '--text', ''], message: /^--text: is empty/ },
  { args: ['classify', '--batch', 'empty.txt'], message: /^empty\.txt: is empty, expected at least one JSON record/ },
  { args: ['classify', '--batch', 'blank.jsonl'], message: /^blank\.jsonl: holds only blank lines, expected at least one JSON record/ },
  { args: ['classify', '--batch', '-'], stdin: '', message: /^stdin: is empty/ },
  { args: ['data', 'add', 'listings', 'empty.txt'], message: /^empty\.txt: is empty/ },
  { args: ['data', 'add', 'listings', 'blank.jsonl'], message: /^blank\.jsonl: holds only blank lines/ },
  { args: ['data', 'import', 'listings', 'blank.jsonl'], message: /^blank\.jsonl: holds only blank lines/ },
  { args: ['data', 'import', 'listings', '-'], stdin: '', message: /^stdin: is empty/ },
  { args: ['data', 'import', 'listings', '-', '--no-validate'], stdin: '', message: /^stdin: is empty/ },
  // What `zcat dump.jsonl.gz | csafe data import listings - --no-validate` gives for a dump of blank lines.
  { args: ['data', 'import', 'listings', '-', '--no-validate'], stdin: '\n\n', message: /^stdin: holds only blank lines/ },
  { args: ['events', 'send', 'empty.txt'], message: /^empty\.txt: is empty/ },
  { args: ['events', 'send', 'blank.jsonl'], message: /^blank\.jsonl: holds only blank lines/ },
  { args: ['events', 'send', '--dry-run', 'blank.jsonl'], message: /^blank\.jsonl: holds only blank lines/ },
  { args: ['events', 'send', '-'], stdin: '', message: /^stdin: is empty/ },
  { args: ['stream', 'parts', 'live', '--id', 'show-1', 'blank.jsonl'], message: /^blank\.jsonl: holds only blank lines/ },
  { args: ['stream', 'parts', 'live', '--id', 'show-1', '-'], stdin: '', message: /^stdin: is empty/ },
  { args: ['stream', 'parts', 'live', '--id', 'show-1', '--captions', 'nocues.vtt', '--start', '2026-11-21T10:00:00Z'], message: /^nocues\.vtt: holds no cues/ },
  { args: ['stream', 'parts', 'live', '--id', 'show-1', '--follow'], stdin: '\n', message: /^stdin: ended with no parts, expected at least one JSON part a line; nothing was sent/ },
  { args: ['import', 'create', 'blank.jsonl'], message: /^blank\.jsonl: holds only blank lines/ },
  { args: ['batch', 'create', '--type', 'text', 'empty.txt'], message: /^empty\.txt: is empty, expected a header row/ },
  { args: ['batch', 'create', '--type', 'text', 'header.csv'], message: /^header\.csv: has a header but no rows/ },
  { args: ['settings', 'put', 'listings', 'empty.json'], message: /^empty\.json: is empty, expected a JSON object mapping field names/ },
  { args: ['settings', 'put', 'listings', '-'], stdin: ' \n', message: /^stdin: is empty, expected a JSON object mapping field names/ },
  { args: ['decision', 'create', '--type', 'text', '--content', '@empty.json'], message: /^--content: empty\.json: is empty, expected a JSON object/ },
  { args: ['decision', 'create', '--type', 'text', '--content', ''], message: /^--content: is empty, expected a JSON object/ },
];

describe('empty input is refused before anything is sent', () => {
  const emulator = useEmulatorProcess();
  const dir = tempDir();
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  // The runs are in this process (refusing empty input is main()'s answer to it) and name their files as given: from here.
  process.chdir(dir);

  for (const { args, stdin, message } of CASES) {
    const label = `csafe ${args.map((arg) => (arg === '' || /\s/.test(arg) ? JSON.stringify(arg) : arg)).join(' ')}${stdin === undefined ? '' : ` <<< ${JSON.stringify(stdin)}`}`;
    it(label, async () => {
      const before = (await emulator.requests()).length;
      const result = await runInProcess(args, { env: { ...emulator.env, CSAFE_USER_ID: 'user-1' }, input: stdin ?? '' });
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stdout, '');
      const lines = result.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, `one line on stderr:\n${result.stderr}`);
      assert.match(lines[0]!.replace(/^error: /, ''), message);
      assert.match(lines[0]!, /^error: /);
      assert.equal((await emulator.requests()).length, before, 'nothing was sent');
    });
  }
});
