import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { configFilePath } from '../../../src/core/config/paths.js';
import { assertConfigKey, assertRemovableConfigKey, CONFIG_KEYS, ConfigStore } from '../../../src/core/config/store.js';
import { CorruptConfigError, UsageError } from '../../../src/core/errors.js';
import { ProfileFile, readConfigText } from '../../../src/core/config/profile-file.js';
import { tempDir } from '../../helpers/cli.js';

describe('config store: a file it cannot read', () => {
  it('names a corrupt file and exactly what is wrong with it, and leaves it alone', async (t) => {
    const dir = tempDir('csafe-conf-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'config.json');
    const cases: Array<[string, string]> = [
      ['{"profiles": {', 'is not valid JSON (line 1, column 15)'],
      // The parser's own message quotes the text around the error: here the API key itself.
      ['{\n  "profiles": {"default": {"api_key": sk_live_abcdef123456}}}', 'is not valid JSON (line 2, column 39)'],
      ['{\n  "profiles": {\n    "ci": {"output": json}\n  }\n}\n', 'is not valid JSON (line 3, column 22)'],
      ['[1]', 'does not hold csafe profiles: expected a JSON object with "profiles"'],
      ['"text"', 'does not hold csafe profiles: expected a JSON object with "profiles"'],
      ['{"profiles": 5}', 'does not hold csafe profiles: profiles: expected an object of profiles'],
      ['{"profiles": {"ci": 5}}', 'does not hold csafe profiles: profiles.ci: expected an object of settings'],
      ['{"profiles": {"default": {"timeout": 5}}}', 'does not hold csafe profiles: profiles.default.timeout: expected a string'],
    ];
    for (const [text, reason] of cases) {
      writeFileSync(path, text);
      const store = new ConfigStore(dir);
      const corrupt = (error: unknown) => error instanceof CorruptConfigError && error.message === `config file ${path} ${reason}`;
      assert.throws(() => store.profile('default'), corrupt, text);
      await assert.rejects(store.set('default', 'user_id', 'u'), corrupt, text);
      assert.equal(readFileSync(path, 'utf8'), text, 'nothing written over it');
    }
    writeFileSync(path, '{"profiles": {"ci": {"output": "json"}}, "written_by": "a newer csafe"}');
    assert.deepEqual(new ConfigStore(dir).profile('ci'), { output: 'json' }, 'keys it does not know are left alone');
  });
});

describe('config store: profiles', () => {
  it('starts empty and creates nothing on reading; the first write creates a private directory and file', async (t) => {
    const dir = join(tempDir('csafe-conf-'), 'a', 'b');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const store = new ConfigStore(dir);
    assert.deepEqual(store.profileNames(), []);
    assert.deepEqual(store.profile('default'), {});
    assert.equal(store.path, join(dir, 'config.json'));
    assert.ok(!existsSync(dirname(dir)), 'reading creates nothing: a read-only HOME still runs every command');
    await store.set('default', 'user_id', 'u1');
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(store.path).mode & 0o777, 0o600);
  });

  it('knows `default` without a file, and refuses another unknown profile naming where it came from and listing those there are', async (t) => {
    const dir = tempDir('csafe-conf-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const store = new ConfigStore(dir);
    assert.ok(store.hasProfile('default'));
    store.requireProfile('default', '--profile');
    await store.set('staging', 'user_id', 'u1');
    store.requireProfile('staging', 'CSAFE_PROFILE');
    assert.throws(() => store.requireProfile('stagign', 'CSAFE_PROFILE'), {
      constructor: UsageError,
      message: 'unknown profile "stagign" (from CSAFE_PROFILE); the profiles are: default, staging',
      hint: 'create it with `csafe --profile stagign auth login` or `csafe --profile stagign config set <key> <value>`',
    });
    assert.throws(() => store.requireProfile('my work', '--profile'), {
      hint: "create it with `csafe --profile 'my work' auth login` or `csafe --profile 'my work' config set <key> <value>`",
    }, 'a name a shell would split is quoted, so the hint runs as written');
  });

  it('hands out copies, unsets one key only, and narrows a wider file to 0600 on write', async (t) => {
    const dir = tempDir('csafe-conf-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'config.json');
    writeFileSync(path, '{"profiles": {"default": {"output": "json", "timeout": "5s"}}}');
    chmodSync(path, 0o644);
    const store = new ConfigStore(dir);
    store.profile('default').output = 'table';
    assert.deepEqual(store.profile('default'), { output: 'json', timeout: '5s' });
    await store.unset('default', 'timeout');
    assert.deepEqual(new ConfigStore(dir).profile('default'), { output: 'json' });
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });
});

describe('config store: its lock', () => {
  it('replaces the file whole at every write, also where SNAP is set (a terminal of VS Code installed as a snap): a reader never finds it torn', async (t) => {
    const dir = tempDir('csafe-conf-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const store = new ConfigStore(dir);
    await store.set('default', 'user_id', 'u1');
    const before = statSync(store.path).ino;
    const snap = process.env.SNAP;
    process.env.SNAP = '/snap/code/1';
    t.after(() => (snap === undefined ? delete process.env.SNAP : (process.env.SNAP = snap)));
    await store.set('ci', 'output', 'json');
    assert.notEqual(statSync(store.path).ino, before, 'a new file renamed over it, not the same one written again');
    assert.equal(process.env.SNAP, '/snap/code/1', 'SNAP is as it was');
    assert.deepEqual(new ConfigStore(dir).profile('ci'), { output: 'json' });
  });

  it('something that is no lock where the lock goes is left alone, and the hint says how to use another config directory', async (t) => {
    const dir = tempDir('csafe-conf-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, 'config.json.lock', 'inside'), { recursive: true });
    await assert.rejects(new ConfigStore(dir).set('default', 'user_id', 'u'), (error: unknown) => {
      assert.ok(error instanceof UsageError, String(error));
      assert.match(error.hint ?? '', /^set CSAFE_CONFIG_DIR to another directory, or move \S+config\.json\.lock away/);
      return true;
    });
    assert.ok(existsSync(join(dir, 'config.json.lock', 'inside')), 'left as it was');
  });
});

describe('profile file: read without conf, where conf keeps it', () => {
  it('finds config.json where conf does when CSAFE_CONFIG_DIR does not say, and reads what conf wrote there', async (t) => {
    const base = tempDir('csafe-conf-');
    const saved = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = base;
    t.after(() => {
      if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = saved;
      rmSync(base, { recursive: true, force: true });
    });
    const store = new ConfigStore();
    await store.set('ci', 'output', 'json');
    const file = new ProfileFile();
    assert.ok(existsSync(file.path), 'conf wrote the file where ProfileFile reads it');
    if (process.platform === 'linux') assert.equal(file.path, join(base, 'csafe', 'config.json'));
    assert.deepEqual(file.profile('ci'), { output: 'json' });
  });

  it('reads a missing file as no profiles, creating nothing', (t) => {
    const dir = join(tempDir('csafe-conf-'), 'a');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    assert.deepEqual(new ProfileFile(dir).profileNames(), []);
    assert.ok(!existsSync(dir));
  });

  it('refuses, as a corrupt file, one it cannot open, one that is not a regular file, and one over 1 MiB, without reading it whole', async (t) => {
    const dir = tempDir('csafe-conf-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const notDirectory = join(dir, 'file');
    writeFileSync(notDirectory, '');
    mkdirSync(join(dir, 'directory', 'config.json'), { recursive: true });
    mkdirSync(join(dir, 'big'));
    writeFileSync(join(dir, 'big', 'config.json'), `{"profiles": {}, "pad": "${'x'.repeat(1024 * 1024)}"}`);
    mkdirSync(join(dir, 'loop'));
    symlinkSync('config.json', join(dir, 'loop', 'config.json'));
    const cases: Array<[string, string]> = [
      [notDirectory, 'cannot be read: a part of its path is not a directory (ENOTDIR)'],
      [join(dir, 'loop'), `cannot be read: ELOOP: too many symbolic links encountered, open '${join(dir, 'loop', 'config.json')}'`],
      [join(dir, 'directory'), 'is not a regular file'],
      [join(dir, 'big'), 'is larger than 1 MiB'],
    ];
    for (const [configDir, reason] of cases) {
      const message = `config file ${join(configDir, 'config.json')} ${reason}`;
      assert.throws(() => new ProfileFile(configDir).profileNames(), { constructor: CorruptConfigError, message });
      await assert.rejects(new ConfigStore(configDir).set('default', 'user_id', 'u'), { constructor: CorruptConfigError, message });
    }
  });
});

describe('assertConfigKey', () => {
  it('accepts each known key and names them all when refusing another', () => {
    for (const key of CONFIG_KEYS) assert.equal(assertConfigKey(key), key);
    assert.deepEqual([...CONFIG_KEYS], ['api_key', 'base_url', 'user_id', 'output', 'request_timeout', 'max_retries']);
    assert.throws(
      () => assertConfigKey('colour'),
      (error: unknown) => error instanceof UsageError && error.message === 'unknown config key "colour": expected one of api_key, base_url, user_id, output, request_timeout, max_retries',
    );
  });

  it('names what replaced a key an older csafe wrote; only unset still takes it, to remove it', () => {
    assert.throws(
      () => assertConfigKey('timeout'),
      (error: unknown) => error instanceof UsageError && error.message === 'config key "timeout" is now "request_timeout" (the timeout of each request): csafe config set request_timeout <value>',
    );
    assert.equal(assertRemovableConfigKey('timeout'), 'timeout');
    assert.equal(assertRemovableConfigKey('output'), 'output');
    assert.throws(() => assertRemovableConfigKey('colour'), /unknown config key "colour"/);
  });
});

describe('readConfigText', () => {
  it('reads a config file of exactly 1 MiB whole, and refuses one a byte larger', (t) => {
    const dir = tempDir('csafe-conf-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const opening = '{"profiles": {}, "pad": "';
    const atLimit = `${opening}${'x'.repeat(1024 * 1024 - opening.length - 2)}"}`;
    assert.equal(Buffer.byteLength(atLimit), 1024 * 1024);
    writeFileSync(join(dir, 'config.json'), atLimit);
    assert.equal(readConfigText(join(dir, 'config.json')), atLimit);
    writeFileSync(join(dir, 'config.json'), `${atLimit}\n`);
    assert.throws(() => readConfigText(join(dir, 'config.json')), { constructor: CorruptConfigError, message: `config file ${join(dir, 'config.json')} is larger than 1 MiB` });
    assert.equal(readConfigText(join(dir, 'missing.json')), undefined);
    writeFileSync(join(dir, 'empty.json'), '');
    assert.equal(readConfigText(join(dir, 'empty.json')), '');
  });
});

describe('configFilePath', () => {
  it('is config.json in CSAFE_CONFIG_DIR, resolved, else in $XDG_CONFIG_HOME/csafe, else in ~/.config/csafe', () => {
    const onLinux = (dir: string | undefined, env: NodeJS.ProcessEnv) => configFilePath(dir, env, 'linux');
    assert.equal(onLinux('/etc/csafe-ci', {}), '/etc/csafe-ci/config.json');
    assert.equal(onLinux('relative/dir', {}), join(process.cwd(), 'relative', 'dir', 'config.json'));
    assert.equal(onLinux(undefined, { XDG_CONFIG_HOME: '/xdg' }), '/xdg/csafe/config.json');
    assert.equal(onLinux(undefined, { XDG_CONFIG_HOME: '' }), join(homedir(), '.config', 'csafe', 'config.json'));
    assert.equal(onLinux(undefined, {}), join(homedir(), '.config', 'csafe', 'config.json'));
    assert.equal(onLinux('/etc/csafe-ci', { XDG_CONFIG_HOME: '/xdg' }), '/etc/csafe-ci/config.json');
  });

  // Where env-paths, which conf uses, puts the config of "csafe" with no suffix on those systems.
  it('is in ~/Library/Preferences/csafe on macOS and in %APPDATA%\\csafe\\Config on Windows, whatever XDG_CONFIG_HOME says', () => {
    const xdg = { XDG_CONFIG_HOME: '/xdg' };
    assert.equal(configFilePath(undefined, xdg, 'darwin'), join(homedir(), 'Library', 'Preferences', 'csafe', 'config.json'));
    assert.equal(configFilePath(undefined, { ...xdg, APPDATA: '/roaming' }, 'win32'), join('/roaming', 'csafe', 'Config', 'config.json'));
    assert.equal(configFilePath(undefined, { ...xdg, APPDATA: '' }, 'win32'), join(homedir(), 'AppData', 'Roaming', 'csafe', 'Config', 'config.json'));
    assert.equal(configFilePath('/etc/csafe-ci', xdg, 'win32'), '/etc/csafe-ci/config.json');
  });
});
