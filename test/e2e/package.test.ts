import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tempDir } from '../helpers/cli.js';

// The package as users install it: packed from this build (npm pack, without rebuilding: other
// test files run on dist/ meanwhile), installed globally under a prefix of its own, and run from
// outside the repository. npm fetches the metadata of its dependencies from the registry, so this
// runs in `npm run test:matrix` under each Node, not in `npm test` (.ci/suite.mjs), which runs offline.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);
const DEADLINE = { timeout: 120_000 };
const onPath = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;

describe('the npm package', () => {
  it('holds only what a user needs, and works once installed with npm install -g: --version, --help, man csafe-data, a command against --emulator', async () => {
    const dir = tempDir();
    // npm keeps a compile cache in the temporary directory (Node ≥ 22): this test's own, removed with it.
    const npm = { env: { ...process.env, TMPDIR: dir }, ...DEADLINE };
    const { stdout: packed } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, ...npm });
    const [{ filename, files }] = JSON.parse(packed) as [{ filename: string; files: Array<{ path: string }> }];
    const tops = new Set(files.map(({ path }) => (path.startsWith('dist/bundle/') ? `dist/bundle/*${path.slice(path.lastIndexOf('.'))}` : path.split('/')[0]!)));
    assert.deepEqual([...tops].sort(), ['CHANGELOG.md', 'LICENSE', 'README.md', 'bin', 'completions', 'dist/bundle/*.cjs', 'dist/bundle/*.js', 'dist/bundle/*.json', 'man', 'package.json']);

    const prefix = join(dir, 'prefix');
    await run('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', join(dir, filename)], { cwd: dir, ...npm });
    const installed = join(prefix, 'bin', 'csafe');
    const outside = { cwd: dir, env: { ...process.env, CSAFE_CONFIG_DIR: join(dir, 'config'), CSAFE_EMULATOR_DATA_DIR: join(dir, 'emulator') }, ...DEADLINE };
    assert.match((await run(installed, ['--version'], outside)).stdout, /^csafe \d+\.\d+\.\d+/);
    assert.match((await run(installed, ['--help'], outside)).stdout, /Usage: csafe/);
    const page = join(prefix, 'share', 'man', 'man1', 'csafe-data.1');
    assert.ok(existsSync(page), 'npm put csafe-data.1 where man looks under the prefix');
    // And man finds it there, where man is installed.
    if (onPath('man')) assert.match((await run('man', ['-M', join(prefix, 'share', 'man'), '-w', 'csafe-data'], outside)).stdout, /csafe-data\.1/);
    const classified = await run(installed, ['--emulator', 'classify', '--text', 'hi', '--user-id', 'u1', '--json'], outside);
    assert.equal((JSON.parse(classified.stdout) as { user_id: string }).user_id, 'u1');
    assert.match((await run(installed, ['completion', 'bash'], outside)).stdout, /complete -F _csafe csafe/);
  });
});
