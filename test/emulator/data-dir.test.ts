import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { EmulatorStartError } from '../../src/emulator/index.js';
import { DATA_DIR_LAYOUT } from '../../src/emulator/stores/data-dir.js';
import { tempDir } from '../helpers/cli.js';
import { userDirectory } from '../helpers/data-dirs.js';
import { addData, waitForTerminal } from './data-support.js';
import { call, startTestEmulator, withEmulator } from './support.js';

/** Every file and folder under `dir` with the content of each file: what a test compares before and after. */
function snapshot(dir: string): Record<string, string> {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return Object.fromEntries(entries.map((entry) => [join(entry.parentPath, entry.name), readFileSync(join(entry.parentPath, entry.name), 'utf8')]));
}

async function refusal(dataDir: string): Promise<EmulatorStartError> {
  const error = await startTestEmulator({ dataDir }).then(
    async (emulator) => {
      await emulator.close();
      return undefined;
    },
    (failure: unknown) => failure,
  );
  assert.ok(error instanceof EmulatorStartError && error.reason === 'data_dir_refused', `refused, not ${String(error)}`);
  return error;
}

describe('emulator data directory: only a directory of its own is used', () => {
  test('a directory with files of its own and no marker is refused, and nothing in it is touched', async () => {
    const dataDir = userDirectory();
    const before = snapshot(dataDir);
    const error = await refusal(dataDir);
    assert.match(error.detail, /not empty and has no \.csafe-emulator file.*empty or new directory/);
    assert.deepEqual(snapshot(dataDir), before);
    assert.deepEqual(readdirSync(dataDir).sort(), ['uploads', 'x.part']);
  });

  test('a volume\'s mount point holding only lost+found is empty for the user: marked and used, lost+found left alone', async () => {
    const dataDir = tempDir('csafe-volume-');
    mkdirSync(join(dataDir, 'lost+found'));
    writeFileSync(join(dataDir, 'lost+found', '#12'), 'recovered');
    await withEmulator({ dataDir }, async (emulator) => {
      assert.equal((await call(emulator, 'POST', '/_emulator/reset')).status, 200);
    });
    assert.ok(readdirSync(dataDir).includes('.csafe-emulator'));
    assert.equal(readFileSync(join(dataDir, 'lost+found', '#12'), 'utf8'), 'recovered');
  });

  test('a new directory is marked as the emulator\'s, and used again at the next start', async () => {
    const dataDir = join(tempDir('csafe-emulator-'), 'new', 'data');
    await withEmulator({ dataDir }, async () => {});
    assert.deepEqual(JSON.parse(readFileSync(join(dataDir, '.csafe-emulator'), 'utf8')).format, 1);
    await withEmulator({ dataDir }, async () => {});
  });

  test('a data directory of a csafe from before the marker is adopted with its data', async () => {
    const dataDir = tempDir('csafe-emulator-');
    const requestId = await withEmulator({ dataDir }, async (emulator) => {
      const id = await addData(emulator, 'ns', { id: 'a', text: 'hello' });
      await waitForTerminal(emulator, 'ns', id);
      return id;
    });
    rmSync(join(dataDir, '.csafe-emulator'));
    await withEmulator({ dataDir }, async (emulator) => {
      assert.equal((await call(emulator, 'GET', `/v1/data/ns/requests/${requestId}`)).status, 200);
    });
    assert.ok(readdirSync(dataDir).includes('.csafe-emulator'), 'marked once adopted');
  });

  test('a folder named like the emulator\'s beside a signing-secret that is not one it writes is refused before it is marked: nothing in it is touched', async () => {
    const dataDir = tempDir('csafe-user-');
    mkdirSync(join(dataDir, 'uploads'));
    writeFileSync(join(dataDir, 'uploads', 'thesis.docx'), 'chapter 1');
    writeFileSync(join(dataDir, 'signing-secret'), 'my own secret\n');
    const before = snapshot(dataDir);
    assert.match((await refusal(dataDir)).detail, /signing-secret file is not at least 64 hex characters/);
    assert.deepEqual(snapshot(dataDir), before);
    assert.deepEqual(readdirSync(dataDir).sort(), ['signing-secret', 'uploads']);
    assert.deepEqual(readdirSync(join(dataDir, 'uploads')), ['thesis.docx']);
  });

  test('a marker that csafe did not write, or one of a newer csafe, is refused', async () => {
    const dataDir = tempDir('csafe-emulator-');
    writeFileSync(join(dataDir, '.csafe-emulator'), 'hello');
    assert.match((await refusal(dataDir)).detail, /not one csafe wrote/);
    writeFileSync(join(dataDir, '.csafe-emulator'), '{"format":2}');
    assert.match((await refusal(dataDir)).detail, /newer csafe \(data directory format 2/);
  });

  test('a signing secret that is empty or short is refused at start: anyone could forge its URLs', async () => {
    const dataDir = tempDir('csafe-emulator-');
    await withEmulator({ dataDir }, async () => {});
    for (const secret of ['', 'abcd', `${'ab'.repeat(31)}\n`, 'z'.repeat(64)]) {
      writeFileSync(join(dataDir, 'signing-secret'), secret);
      assert.match((await refusal(dataDir)).detail, /signing-secret file is not at least 64 hex characters/, JSON.stringify(secret));
    }
  });
});

describe('emulator data directory: layout', () => {
  test('every folder and file the stores make at the top is in the layout that reset and clean-up keep to', async () => {
    const dataDir = tempDir('csafe-emulator-');
    await withEmulator({ dataDir }, async (emulator) => {
      const requestId = await addData(emulator, 'ns', { id: 'a', text: 'hello' });
      await waitForTerminal(emulator, 'ns', requestId);
    });
    const known: readonly string[] = [...DATA_DIR_LAYOUT.areas, ...DATA_DIR_LAYOUT.rootFiles];
    assert.deepEqual(readdirSync(dataDir).filter((name) => !known.includes(name)), []);
  });
});

describe('emulator data directory: reset', () => {
  test('reset empties the emulator\'s folders and leaves everything else in the directory, links included', async () => {
    const [dataDir, elsewhere] = [tempDir('csafe-emulator-'), tempDir('csafe-elsewhere-')];
    writeFileSync(join(elsewhere, 'keep.txt'), 'not the emulator\'s');
    await withEmulator({ dataDir }, async (emulator) => {
      const requestId = await addData(emulator, 'ns', { id: 'a', text: 'hello' });
      await waitForTerminal(emulator, 'ns', requestId);
      writeFileSync(join(dataDir, 'notes.txt'), 'mine');
      symlinkSync(elsewhere, join(dataDir, 'linked'));
      assert.equal((await call(emulator, 'POST', '/_emulator/reset')).status, 200);
      assert.equal((await call(emulator, 'GET', `/v1/data/ns/requests/${requestId}`)).status, 404);
    });
    assert.equal(readFileSync(join(dataDir, 'notes.txt'), 'utf8'), 'mine');
    assert.equal(readFileSync(join(dataDir, 'linked', 'keep.txt'), 'utf8'), 'not the emulator\'s');
  });
});
