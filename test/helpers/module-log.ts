// Loaded with `node --import` (in NODE_OPTIONS): records every module the process resolves or
// requires, one URL a line, in the file CSAFE_MODULE_LOG names, so a test can say what a command loaded;
// at exit, Node's own modules it loaded too, as `builtin:<name>` lines.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

register('./module-log-hooks.js', import.meta.url);

const log = process.env.CSAFE_MODULE_LOG;
const { moduleLoadList } = process as unknown as { moduleLoadList: string[] };
if (log !== undefined) {
  // CommonJS modules (bin/csafe, dist/bundle/quick.cjs) do not pass the resolve hook: they are named from require's cache.
  const required = () => Object.keys(createRequire(import.meta.url).cache).map((path) => `${pathToFileURL(path).href}\n`);
  process.on('exit', () => appendFileSync(log, [...required(), ...moduleLoadList.map((name) => `builtin:${name.replace(/^NativeModule /, '')}\n`)].join('')));
}
