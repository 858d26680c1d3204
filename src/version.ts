import { readFileSync } from 'node:fs';

/** csafe's version, from package.json; its own module so that bin/csafe answers `--version` without loading the rest. */
export const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
