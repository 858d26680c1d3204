// Loaded with `node --import` (in NODE_OPTIONS): records every module the process resolves,
// one URL a line, in the file CSAFE_MODULE_LOG names, so a test can say what a command loaded.
import { register } from 'node:module';

register('./module-log-hooks.js', import.meta.url);
