import { launch } from './launcher.js';

// The single executable's entry (npm run build:binary, scripts/build-binary.mjs), bundled into one
// CommonJS script, which has no top-level await. Unlike bin/csafe it keeps no code cache of its own:
// the executable carries V8's code cache for the script inside it.
void launch(process.argv.slice(2));
