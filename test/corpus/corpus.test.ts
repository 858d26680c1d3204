import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { EXAMPLES, tempDir, useEmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { pngOfLength } from '../emulator/png.js';
import { CORPUS, type CorpusCase } from './cases.js';

// The bad-input corpus (test/corpus/README.md): each case of cases.ts run as a user would, against
// one emulator, for its one expected outcome — the exit code and a fragment of what csafe says —
// and, for all of them, no crash, no hang (every run has a deadline), no stack trace, and nothing
// sent where the input was refused.

const FILES = fileURLToPath(new URL('../../../test/corpus/files/', import.meta.url));

/** What a case's input names, made ready: a committed file, or one made here (too big, or not a file at all). */
class Inputs {
  private readonly dir = tempDir('csafe-corpus-');
  private readonly writers: ChildProcess[] = [];
  private made = 0;

  path(name: string): string {
    if (name.startsWith('files/')) return join(FILES, name.slice('files/'.length));
    if (name.startsWith('examples/')) return join(EXAMPLES, name.slice('examples/'.length));
    if (name.startsWith('/dev/')) return name;
    const made = MADE[name];
    if (made === undefined) throw new Error(`no such corpus input: ${name}`);
    // Each use its own: a FIFO is read once.
    return made(join(this.dir, `${++this.made} ${name}`), this);
  }

  /** A FIFO the shell command `fill` (given the FIFO as $1) writes into once a reader opens it. */
  fifo(path: string, fill: string): string {
    execFileSync('mkfifo', [path]);
    const writer = spawn('sh', ['-c', fill, 'sh', path], { stdio: 'ignore' });
    writer.on('error', () => undefined);
    this.writers.push(writer);
    return path;
  }

  stop(): void {
    for (const writer of this.writers) writer.kill('SIGKILL');
  }
}

const MADE: Record<string, (path: string, inputs: Inputs) => string> = {
  'a 20 MB line': (path) => write(path, `{"id":"long","title":"${'x'.repeat(20 * 1024 * 1024)}"}\n`),
  '100 MB of blank lines': (path, inputs) => inputs.fifo(path, 'head -c 100000000 /dev/zero | tr "\\000" "\\n" > "$1"'),
  'JSON nested 100,000 deep': (path) => write(path, `{"id":"deep","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}\n`),
  'a FIFO of two records': (path, inputs) => inputs.fifo(path, `printf '{"id":"fifo-1"}\\n{"id":"fifo-2"}\\n' > "$1"`),
  'a directory': (path) => {
    mkdirSync(path);
    return path;
  },
  'a 5 MB + 1 byte image': (path) => write(path, pngOfLength(5 * 1024 * 1024 + 1)),
  '8 KB + 1 byte of metadata': (path) => write(path, JSON.stringify({ note: 'x'.repeat(8_000 - '{"note":""}'.length + 1) })),
};

function write(path: string, content: string | Buffer): string {
  writeFileSync(path, content);
  return path;
}

/** A line of a stack trace, or the words Node prints for an error nothing caught. */
const STACK_TRACE = /^\s+at .+:\d+:\d+\)?$|node:internal|^(Type|Range|Reference|Syntax)?Error: /m;

describe('the bad-input corpus', () => {
  const emulator = useEmulatorProcess(['--processing-delay', '0']);
  const inputs = new Inputs();
  after(() => inputs.stop());

  for (const entry of CORPUS) {
    it(`${entry.input}: csafe ${entry.argv.join(' ')} → exit ${entry.code}`, async () => {
      await check(entry);
    });
  }

  async function check(entry: CorpusCase): Promise<void> {
    const args = entry.argv.map((arg) => arg.replace(/\{([^}]+)\}/g, (_, name: string) => inputs.path(name)));
    const before = (await emulator.requests()).length;
    const result = await runInProcess(args, { env: emulator.env });
    const said = `${result.stdout}\n${result.stderr}`;
    assert.equal(result.code, entry.code, said);
    assert.ok(said.includes(entry.says), `expected ${JSON.stringify(entry.says)} in:\n${said}`);
    assert.doesNotMatch(said, STACK_TRACE);
    if (entry.code === 2) assert.deepEqual(sentBesidesImportRequests((await emulator.requests()).slice(before)), [], 'a refused input sends nothing');
  }

  /**
   * The requests but those asking for an import's upload address: data import checks a file as it
   * uploads it, in one read, and asks for the address once the first chunk passed; a bad line
   * further on stops the upload before its last byte, so the store keeps nothing.
   */
  const sentBesidesImportRequests = (requests: Array<Record<string, unknown>>) =>
    requests.filter((request) => !(request.method === 'POST' && /^\/v1\/data\/[^/]+\/import$/.test(String(request.path))));
});
