import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { forgetRemoval, removeAtExit } from '../../../src/core/files/exit-removal.js';
import { tempDir } from '../../helpers/cli.js';

const MODULE = fileURLToPath(new URL('../../../src/core/files/exit-removal.js', import.meta.url));

/** Runs `body` in a node process of its own that has imported removeAtExit and forgetRemoval, and ends it with process.exit(): no finally runs, the 'exit' event does. */
function runAndExit(body: string): void {
  const script = `import { removeAtExit, forgetRemoval } from ${JSON.stringify(MODULE)};\n${body}\nprocess.exit(7);`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(child.status, 7, child.stderr);
}

describe('removeAtExit', () => {
  it('removes the directories and files it was given when the process exits at once, and none it was told to forget', () => {
    const dir = tempDir();
    const spool = join(dir, 'spool');
    const data = join(dir, 'data');
    const kept = join(dir, 'kept');
    const file = join(dir, 'file.tmp');
    for (const path of [spool, data, kept]) mkdirSync(join(path, 'inner'), { recursive: true });
    writeFileSync(file, 'x');
    runAndExit(`for (const path of ${JSON.stringify([spool, data, kept, file])}) removeAtExit(path);\nforgetRemoval(${JSON.stringify(kept)});`);
    assert.deepEqual([spool, data, kept, file].map(existsSync), [false, false, true, false]);
  });

  it('exits quietly when a path it was given is gone already', () => {
    const gone = join(tempDir(), 'never-made');
    runAndExit(`removeAtExit(${JSON.stringify(gone)});`);
    assert.equal(existsSync(gone), false);
  });
});

describe('removeAtExit in this process', () => {
  /**
   * The hook removeAtExit puts on 'exit', found by its name: other tests of this process may have
   * put it there first.
   */
  const exitHooks = () => process.listeners('exit').filter((listener) => listener.name === 'removePendingPaths');

  it('hooks the exit once however many paths it is given, and that hook removes every path not forgotten, full directories included', () => {
    const dir = tempDir();
    const [full, file, kept, gone] = ['full', 'file.tmp', 'kept', 'gone'].map((name) => join(dir, name)) as [string, string, string, string];
    mkdirSync(join(full, 'inner'), { recursive: true });
    writeFileSync(join(full, 'inner', 'data'), 'x');
    writeFileSync(file, 'x');
    mkdirSync(kept);
    assert.equal(removeAtExit(full), full);
    for (const path of [file, kept, gone]) removeAtExit(path);
    forgetRemoval(kept);
    assert.equal(exitHooks().length, 1);
    removeAtExit(join(dir, 'later'));
    assert.equal(exitHooks().length, 1);
    exitHooks()[0]!(0);
    assert.deepEqual([full, file, kept, gone].map(existsSync), [false, false, true, false]);
  });
});
