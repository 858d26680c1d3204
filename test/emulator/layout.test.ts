import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const EMULATOR = fileURLToPath(new URL('../../../src/emulator/', import.meta.url));

/** The stores that belong to one API area; state.ts and the helpers of stores/ are shared. */
const AREA_OF_STORE: Record<string, string> = {
  'stores/data-store.ts': 'data',
  'stores/data-records.ts': 'data',
  'stores/stream-store.ts': 'streams',
};
const AREAS = ['batches', 'content', 'control', 'data', 'decisions', 'events', 'older-imports', 'streams', 'tokens'];

/** Each emulator source file with the emulator files it imports, paths relative to src/emulator/. */
function emulatorImports(): Array<{ file: string; imports: string[] }> {
  const files = readdirSync(EMULATOR, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.ts'));
  return files.map((file) => {
    const source = readFileSync(join(EMULATOR, file), 'utf8');
    const imports = [...source.matchAll(/from '(\.[^']+)\.js'/g)].map((m) => relative(EMULATOR, join(EMULATOR, dirname(file), `${m[1]}.ts`)));
    return { file, imports };
  });
}

describe('emulator layout', () => {
  it('an API area imports no store of another area', () => {
    const crossings = emulatorImports().flatMap(({ file, imports }) => {
      const area = AREAS.find((name) => file.startsWith(`${name}/`));
      if (area === undefined) return [];
      return imports.filter((path) => AREA_OF_STORE[path] !== undefined && AREA_OF_STORE[path] !== area).map((path) => `${file} -> ${path}`);
    });
    assert.deepEqual(crossings, []);
  });

  it('finds the imports it checks', () => {
    const streams = emulatorImports().find(({ file }) => file === 'streams/routes.ts');
    assert.ok(streams?.imports.includes('stores/stream-store.ts'), JSON.stringify(streams));
  });
});
