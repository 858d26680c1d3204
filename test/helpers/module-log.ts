// Loaded with `node --import` (in NODE_OPTIONS): records every module the process resolves,
// one URL a line, in the file CSAFE_MODULE_LOG names, so a test can say what a command loaded;
// at exit, Node's own modules it loaded too, as `builtin:<name>` lines.
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';

register('./module-log-hooks.js', import.meta.url);

const log = process.env.CSAFE_MODULE_LOG;
const { moduleLoadList } = process as unknown as { moduleLoadList: string[] };
if (log !== undefined) {
  process.on('exit', () => appendFileSync(log, moduleLoadList.map((name) => `builtin:${name.replace(/^NativeModule /, '')}\n`).join('')));
}
