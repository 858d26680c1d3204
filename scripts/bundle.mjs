// The build's second step (after tsc): what bin/csafe runs, one ES module per entry in dist/bundle,
// the code of each command group and of each dependency in chunks loaded when first imported.
// Loading a few files instead of some 200 (csafe's, zod's, undici's, commander's) is a good part
// of a one-request command's start-up. esbuild's account of what went into each file is
// kept beside it (not shipped) for test/e2e/startup.test.ts, which tells by it what a command loaded.
import { execFileSync } from 'node:child_process';
import { realpathSync, rmSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { build } from 'esbuild';
import { walkTree } from '../dist/src/commands/declaration.js';
import { TREE } from '../dist/src/commands/tree.js';
import { main } from '../dist/src/main.js';

const OUT = 'dist/bundle';
// Paths relative to the module survive bundling only at the same depth: version.js reads
// ../../package.json; the emulator starts its import checker as ./import-check-worker.js.
const ENTRIES = {
  launcher: 'dist/src/launcher.js',
  main: 'dist/src/main.js',
  version: 'dist/src/version.js',
  complete: 'dist/src/complete.js',
  'import-check-worker': 'dist/src/emulator/data/import-check-worker.js',
};

rmSync(OUT, { recursive: true, force: true });
const { metafile } = await build({
  entryPoints: ENTRIES,
  outdir: OUT,
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  // Node 20 keeps no compiled code between runs, so every process parses the chunks it loads anew:
  // 28% fewer bytes (names kept, so stack traces still name functions) made one `classify` against
  // an emulator use some 8% less CPU (interleaved runs). The single executable does the same.
  minifyWhitespace: true,
  minifySyntax: true,
  // The CommonJS packages bundled (undici, commander) require() Node's own modules.
  banner: { js: "import { createRequire as __csafeCreateRequire } from 'node:module'; const require = __csafeCreateRequire(import.meta.url);" },
});

// What bin/csafe answers before it loads the bundle (src/quick.ts: --version, and --help into a
// pipe), as the one CommonJS script it requires: without Node's ES module loader, whose start-up
// costs more than the answer. It reads package.json, build.json and help.json by its own location.
const { metafile: quickMeta } = await build({
  entryPoints: { quick: 'dist/src/quick.js' },
  outfile: `${OUT}/quick.cjs`,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.18',
  metafile: true,
  logLevel: 'warning',
  define: { 'import.meta.url': '__csafeModuleUrl' },
  banner: { js: "const __csafeModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

writeFileSync(`${OUT}.meta.json`, JSON.stringify({ inputs: { ...metafile.inputs, ...quickMeta.inputs }, outputs: { ...metafile.outputs, ...quickMeta.outputs } }));
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

/** The commit of the checkout csafe is built in; none when csafe is not a checkout's top (a copy inside another project's repository). */
function gitCommit() {
  try {
    const [top, commit] = execFileSync('git', ['rev-parse', '--show-toplevel', '--short=12', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim().split('\n');
    return realpathSync(top) === realpathSync('.') && /^[0-9a-f]+$/.test(commit) ? { commit } : {};
  } catch {
    return {};
  }
}
