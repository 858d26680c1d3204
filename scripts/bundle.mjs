// The build's second step (after tsc): what bin/csafe runs, in dist/bundle. csafe.cjs is all of
// csafe (src/launcher.ts and what it imports, every import() inlined) as one CommonJS script,
// wrapped as a function of CommonJS's arguments for bin/csafe to compile with V8's code cache
// (src/cached-bundle.ts): on Node 20 a command's start-up went from the ES module loader and some
// ninety chunks, compiled anew at every run, to one cached script. The code of a module still
// runs only when it is first imported (esbuild wraps each in an init function named by its path),
// so what a command pays for stays what it uses: test/e2e/startup.test.ts tells it by those names.
// esbuild's account of what went into each file is kept beside it (not shipped).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { build } from 'esbuild';
import { walkTree } from '../dist/src/commands/declaration.js';
import { GLOBAL_FLAGS_WITH_VALUE } from '../dist/src/core/cli/global-flags.js';
import { TREE } from '../dist/src/commands/tree.js';
import { main } from '../dist/src/main.js';

const OUT = 'dist/bundle';
// Paths relative to the module survive bundling only at the same depth: version.js reads
// ../../package.json; the emulator starts its import checker as ./import-check-worker.js.
const COMMON = {
  bundle: true,
  platform: 'node',
  target: 'node20.18',
  metafile: true,
  logLevel: 'warning',
  // Less to read and compile: 28% fewer bytes (names kept, so stack traces still name functions)
  // made one `classify` against an emulator use some 8% less CPU. The single executable does the same.
  minifyWhitespace: true,
  minifySyntax: true,
};

rmSync(OUT, { recursive: true, force: true });
const { metafile } = await build({
  ...COMMON,
  entryPoints: { csafe: 'dist/src/launcher.js' },
  outfile: `${OUT}/csafe.cjs`,
  format: 'cjs',
  sourcemap: 'linked',
  // CommonJS has no import.meta: a module's URL is the bundle's, whose directory is the one the modules had.
  define: { 'import.meta.url': '__csafeModuleUrl' },
  plugins: [loadedWhenCalled()],
  banner: { js: "(function (exports, require, module, __filename, __dirname) { 'use strict'; const __csafeModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  footer: { js: '})' },
});
assertNoImportLeft(`${OUT}/csafe.cjs`);

// The emulator's import checker runs in a worker thread, from its own file.
const { metafile: workerMeta } = await build({
  ...COMMON,
  entryPoints: { 'import-check-worker': 'dist/src/emulator/data/import-check-worker.js' },
  outdir: OUT,
  format: 'esm',
  sourcemap: 'linked',
  // The CommonJS packages bundled require() Node's own modules.
  banner: { js: "import { createRequire as __csafeCreateRequire } from 'node:module'; const require = __csafeCreateRequire(import.meta.url);" },
});

// What bin/csafe answers before it loads the bundle (src/quick.ts: --version, and --help into a
// pipe), and how it runs the bundle (src/cached-bundle.ts), as the one small CommonJS script it
// requires: reading and compiling the bundle costs more than those answers. It reads package.json,
// build.json and help.json by its own location.
const { metafile: quickMeta } = await build({
  entryPoints: { quick: 'dist/src/quick.js' },
  outfile: `${OUT}/quick.cjs`,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.18',
  metafile: true,
  logLevel: 'warning',
  // What src/cached-bundle.ts names a code cache by: the words naming each command (each keeps a
  // cache of its own, found past the global flags and their values) and the bundle's text.
  define: {
    'import.meta.url': '__csafeModuleUrl',
    CSAFE_COMMAND_PATHS: JSON.stringify(Array.from(walkTree(TREE), ({ path }) => path.join(' '))),
    CSAFE_GLOBAL_VALUE_FLAGS: JSON.stringify([...GLOBAL_FLAGS_WITH_VALUE]),
    CSAFE_BUNDLE_DIGEST: JSON.stringify(createHash('sha256').update(readFileSync(`${OUT}/csafe.cjs`)).digest('hex').slice(0, 12)),
  },
  banner: { js: "const __csafeModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

const metafiles = [metafile, workerMeta, quickMeta];
writeFileSync(`${OUT}.meta.json`, JSON.stringify({ inputs: Object.assign({}, ...metafiles.map((meta) => meta.inputs)), outputs: Object.assign({}, ...metafiles.map((meta) => meta.outputs)) }));
writeFileSync(`${OUT}/help.json`, JSON.stringify(await helpTexts()) + '\n');

// What `csafe version` names besides the release: the commit built (when this is a git checkout) and when.
writeFileSync(`${OUT}/build.json`, JSON.stringify({ ...gitCommit(), built: new Date().toISOString() }) + '\n');

/**
 * Every command's --help, as main() prints it into a pipe (no terminal, no COLUMNS), by the words
 * naming the command, for bin/csafe to print without loading the rest (src/quick.ts).
 */
async function helpTexts() {
  const texts = {};
  for (const words of [[], ...Array.from(walkTree(TREE), ({ path }) => path)]) {
    const [stdout, stderr] = [collected(), collected()];
    const stdin = new PassThrough();
    stdin.end();
    const code = await main([...words, '--help'], { stdin, stdout: stdout.stream, stderr: stderr.stream, env: {}, signal: new AbortController().signal });
    if (code !== 0 || stderr.text() !== '') throw new Error(`csafe ${words.join(' ')} --help: exit ${code}: ${stderr.text()}`);
    texts[words.join(' ')] = stdout.text();
  }
  return texts;
}

function collected() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  return { stream, text: () => text };
}

/**
 * What two bundled packages load at once but use only in a case csafe never meets, loaded instead
 * when first called: undici's HTTP/2 client (node:http2, with node:http and node:tls: some 4 ms of
 * every networked command's start-up), used only when a server agrees to HTTP/2, which undici
 * offers only when allowH2 is set; and commander's node:child_process, used only to run a
 * subcommand that is a separate executable. Each call goes to the module itself, so nothing
 * changes but when it loads; test/e2e/startup.test.ts checks that neither is loaded.
 */
function loadedWhenCalled() {
  const LAZY = [
    { importer: /node_modules\/undici\/lib\/dispatcher\/client\.js$/, request: './client-h2.js', name: 'undici-client-h2', standIn: (real) => `module.exports = function connectH2(...args) { return require(${real})(...args); };` },
    { importer: /node_modules\/commander\/lib\/command\.js$/, request: 'node:child_process', name: 'commander-child-process', standIn: (real) => `exports.spawn = (...args) => require(${real}).spawn(...args);` },
  ];
  const setup = (build) => {
    build.onResolve({ filter: /^(\.\/client-h2\.js|node:child_process)$/ }, ({ path, importer, resolveDir }) => {
      const lazy = LAZY.find((entry) => entry.request === path && entry.importer.test(importer));
      return lazy === undefined ? undefined : { path: lazy.name, namespace: 'loaded-when-called', pluginData: { ...lazy, resolveDir } };
    });
    build.onLoad({ filter: /.*/, namespace: 'loaded-when-called' }, ({ pluginData: { standIn, request, resolveDir } }) => ({ contents: standIn(JSON.stringify(request)), resolveDir, loader: 'js' }));
  };
  return { name: 'loaded-when-called', setup };
}

/** The bundle is compiled as a script, where an import() left in it would fail when run: esbuild inlines csafe's own. */
function assertNoImportLeft(file) {
  const left = /\bimport\(\s*["'`][^"'`]+["'`]\s*\)/.exec(readFileSync(file, 'utf8'));
  if (left !== null) throw new Error(`${file}: ${left[0]} was left in the bundle; a script compiled by bin/csafe cannot import()`);
}

/** The commit of the checkout csafe is built in; none when csafe is not a checkout's top (a copy inside another project's repository). */
function gitCommit() {
  try {
    const [top, commit] = execFileSync('git', ['rev-parse', '--show-toplevel', '--short=12', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim().split('\n');
    return realpathSync(top) === realpathSync('.') && /^[0-9a-f]+$/.test(commit) ? { commit } : {};
  } catch {
    return {};
  }
}
