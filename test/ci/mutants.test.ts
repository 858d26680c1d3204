import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/cli.js';

const SCRIPT = fileURLToPath(new URL('../../../.ci/mutants.mjs', import.meta.url));

interface Mutant {
  status: string;
  line: number;
  column: number;
  end: number;
  mutatorName?: string;
  replacement?: string;
}

/** A mutation report of the schema StrykerJS writes, with the fields the script reads. */
function report(dir: string, name: string, files: Record<string, { source: string; mutants: Mutant[] }>): string {
  const path = join(dir, name);
  const shaped = Object.fromEntries(
    Object.entries(files).map(([file, { source, mutants }]) => [
      file,
      {
        language: 'typescript',
        source,
        mutants: mutants.map((m, i) => ({
          id: String(i),
          mutatorName: m.mutatorName ?? 'ConditionalExpression',
          replacement: m.replacement ?? 'true',
          status: m.status,
          location: { start: { line: m.line, column: m.column }, end: { line: m.line, column: m.end } },
        })),
      },
    ]),
  );
  writeFileSync(path, JSON.stringify({ schemaVersion: '2', thresholds: { high: 80, low: 60 }, files: shaped }));
  return path;
}

const run = (...args: string[]) => execFileSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8', timeout: 20_000 }).trimEnd();

describe('.ci/mutants.mjs', () => {
  const dir = tempDir();
  const first = report(dir, 'first.json', {
    'src/a.ts': {
      source: 'a',
      mutants: [
        { status: 'Killed', line: 1, column: 1, end: 5 },
        { status: 'Survived', line: 2, column: 3, end: 9 },
        { status: 'NoCoverage', line: 3, column: 1, end: 2, replacement: 'false' },
        { status: 'CompileError', line: 4, column: 1, end: 2 },
      ],
    },
    'src/b.ts': { source: 'b', mutants: [{ status: 'Survived', line: 7, column: 10, end: 20 }, { status: 'Timeout', line: 8, column: 1, end: 2 }] },
  });

  it('gives the --mutate ranges of the mutants that survived or no test reached, columns counted from 0', () => {
    assert.equal(run('survivors', first), 'src/a.ts:2:2-2:8,src/a.ts:3:0-3:1,src/b.ts:7:9-7:19');
  });

  it('scores a later run of the survivors in place of the earlier verdicts, and a changed file by the later run alone', () => {
    const second = report(dir, 'second.json', {
      'src/a.ts': { source: 'a', mutants: [{ status: 'Killed', line: 2, column: 3, end: 9 }, { status: 'Survived', line: 3, column: 1, end: 2, replacement: 'false' }] },
      'src/b.ts': { source: 'b changed', mutants: [{ status: 'Killed', line: 7, column: 10, end: 20 }] },
    });
    assert.equal(run('score', first), 'src/a.ts  1 of 3\nsrc/b.ts  1 of 2\nall  2 of 5  40.0 %');
    assert.equal(run('score', first, second), 'src/a.ts  2 of 3\nsrc/b.ts  1 of 1\nall  3 of 4  75.0 %');
    assert.equal(run('survivors', first, second), 'src/a.ts:3:0-3:1');
  });

  it('fails, saying why, when no mutant survived, rather than print an empty --mutate', () => {
    const clean = report(dir, 'clean.json', { 'src/a.ts': { source: 'a', mutants: [{ status: 'Killed', line: 1, column: 1, end: 5 }] } });
    const none = spawnSync(process.execPath, [SCRIPT, 'survivors', clean], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(none.status, 1);
    assert.equal(none.stdout, '');
    assert.equal(none.stderr, 'no mutant survived in these reports: nothing to run again\n');
  });

  it('says how it is used, exit 2, when not given a command and a report', () => {
    const usage = spawnSync(process.execPath, [SCRIPT, 'scores'], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /^usage: node \.ci\/mutants\.mjs survivors\|score REPORT\.\.\./);
  });
});
