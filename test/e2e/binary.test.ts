import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EXAMPLES, outcome, tempDir, type RunResult } from '../helpers/cli.js';

// The single executable (npm run build:binary) as someone without Node runs it: built afresh from
// this build into a directory of the test's own (never a dist/csafe-linux-x64 left from an earlier
// build), run from outside the repository with no `node` on PATH. The build takes some 10 s: run
// once by `npm run test:matrix`, not by `npm test` (.ci/suite.mjs).

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUILD_TIMEOUT_MS = 180_000;

/** PATH less every directory that holds a `node`. */
const pathWithoutNode = (path: string) => path.split(delimiter).filter((dir) => dir !== '' && !existsSync(join(dir, 'node'))).join(delimiter);

describe('the single executable', () => {
  const dir = tempDir();
  const binary = join(dir, 'csafe');
  // Only what a user's shell would give it: none of the developer's csafe set-up or NODE_OPTIONS.
  const env = {
    PATH: pathWithoutNode(process.env.PATH ?? ''),
    HOME: dir,
    TMPDIR: process.env.TMPDIR,
    CSAFE_CONFIG_DIR: join(dir, 'config'),
    CSAFE_EMULATOR_DATA_DIR: join(dir, 'emulator'),
  };
  const csafe = (args: string[], extra: Record<string, string> = {}): Promise<RunResult> =>
    outcome(spawn(binary, args, { cwd: dir, env: { ...env, ...extra } }));

  before(async () => {
    const built = await outcome(spawn(process.execPath, ['scripts/build-binary.mjs', '--out', binary], { cwd: ROOT }), '', { timeoutMs: BUILD_TIMEOUT_MS });
    assert.equal(built.code, 0, built.stderr);
  });

  it('runs where no node is on PATH', async () => {
    const found = await outcome(spawn('/bin/sh', ['-c', 'command -v node'], { env }));
    assert.deepEqual([found.code === 0, found.stdout], [false, ''], `PATH=${env.PATH} still finds a node`);
  });

  it('--version names the package version and the commit built, on Node 24, with nothing on stderr', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const { commit } = JSON.parse(readFileSync(join(ROOT, 'dist/bundle/build.json'), 'utf8')) as { commit?: string };
    const { code, stdout, stderr } = await csafe(['--version']);
    assert.equal(code, 0, stderr);
    assert.match(stdout, new RegExp(`^csafe ${version.replaceAll('.', '\\.')} \\(${commit ? `commit ${commit}, ` : ''}built \\d{4}-\\d\\d-\\d\\d\\) on Node v24\\.`));
    assert.equal(stderr, '');
  });

  it('--help', async () => {
    const { code, stdout, stderr } = await csafe(['--help']);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^Usage: csafe /);
  });

  it('--emulator classify --json: the labels, as JSON', async () => {
    const { code, stdout, stderr } = await csafe(['--emulator', 'classify', '--text', 'hi', '--user-id', 'u1', '--json']);
    assert.equal(code, 0, stderr);
    const result = JSON.parse(stdout) as { user_id: string; labels: Array<{ label: string }> };
    assert.equal(result.user_id, 'u1');
    assert.ok(result.labels.some(({ label }) => label === 'harassment'));
  });

  it('--emulator classify on a terminal: a table (cli-table3 bundled in)', async () => {
    const { code, stdout, stderr } = await csafe(['--emulator', 'classify', '--text', 'hi', '--user-id', 'u1'], { CSAFE_FORCE_TTY: '1', NO_COLOR: '1' });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^LABEL +DECISION +SCORE\nharassment +not_match/);
  });

  it("--emulator data import: the emulator's import check runs in its worker, embedded", async () => {
    const imported = await csafe(['--emulator', 'data', 'import', 'listings', join(EXAMPLES, 'listings.jsonl'), '--wait', '--json']);
    assert.equal(imported.code, 0, imported.stderr);
    const result = JSON.parse(imported.stdout) as { status: string; data_count: number };
    assert.deepEqual([result.status, result.data_count], ['succeeded', 3]);
    // Sent unchecked (--no-validate), so that the worker is what finds the line wrong.
    writeFileSync(join(dir, 'broken.jsonl'), '{"id":"a"}\nnot json\n');
    const refused = await csafe(['--emulator', 'data', 'import', 'listings', 'broken.jsonl', '--no-validate', '--wait', '--json']);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match((JSON.parse(refused.stdout) as { error: { message: string } }).error.message, /^line 2: invalid JSON/);
  });

  it('completion bash: the script, carried inside', async () => {
    const { code, stdout, stderr } = await csafe(['completion', 'bash']);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, readFileSync(join(ROOT, 'completions/csafe.bash'), 'utf8'));
  });
});
