// The build's second step (after tsc): what bin/csafe runs, one ES module per entry in dist/bundle,
// the code of each command group and of each dependency in chunks loaded when first imported.
// Loading a few files instead of some 200 (csafe's, zod's, undici's, commander's) is a good part
// of a one-request command's start-up. esbuild's account of what went into each file is
// kept beside it (not shipped) for test/e2e/startup.test.ts, which tells by it what a command loaded.
import { execFileSync } from 'node:child_process';
import { realpathSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

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

// `csafe --version` again, as the one CommonJS script bin/csafe requires: answered without Node's
// ES module loader, whose start-up costs more than the rest of it. It reads package.json and
// build.json by its own location, as version.js does.
const { metafile: versionMeta } = await build({
  entryPoints: { version: ENTRIES.version },
  outfile: `${OUT}/version.cjs`,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.18',
  metafile: true,
  logLevel: 'warning',
  define: { 'import.meta.url': '__csafeModuleUrl' },
  banner: { js: "const __csafeModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

writeFileSync(`${OUT}.meta.json`, JSON.stringify({ inputs: { ...metafile.inputs, ...versionMeta.inputs }, outputs: { ...metafile.outputs, ...versionMeta.outputs } }));

// What `csafe version` names besides the release: the commit built (when this is a git checkout) and when.
writeFileSync(`${OUT}/build.json`, JSON.stringify({ ...gitCommit(), built: new Date().toISOString() }) + '\n');

/** The commit of the checkout csafe is built in; none when csafe is not a checkout's top (a copy inside another project's repository). */
function gitCommit() {
  try {
    const [top, commit] = execFileSync('git', ['rev-parse', '--show-toplevel', '--short=12', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim().split('\n');
    return realpathSync(top) === realpathSync('.') && /^[0-9a-f]+$/.test(commit) ? { commit } : {};
  } catch {
    return {};
  }
}
