import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// The shape of src/ that keeps every module one hop away: layers with one direction of dependency
// and no import circles. Type imports count: a type cycle still ties two modules together.

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

type Graph = Map<string, string[]>;

const IMPORT = /^\s*(?:import|export)\b[^;]*?\bfrom\s*'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)/gm;

/** The relative imports of one source text, comments removed first (a comment may quote an import). */
function importsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(IMPORT)].map((match) => (match[1] ?? match[2])!);
}

/** Every module of src/ (paths relative to src/, .ts) with the modules it imports. */
function sourceGraph(): Graph {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'));
  return new Map(
    files.map((file) => {
      const targets = importsOf(readFileSync(join(SRC, file), 'utf8')).map((spec) => relative(SRC, join(SRC, dirname(file), spec.replace(/\.js$/, '.ts'))));
      return [file, targets];
    }),
  );
}

/** The strongly connected sets of more than one module (Tarjan), each sorted, for a readable failure. */
export function circlesOf(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== node);
    if (members.length > 1 || (graph.get(node) ?? []).includes(node)) circles.push(members.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

/** Whether a module says what it answers: a comment before its first line of code, its imports and re-exports aside. */
export function opensWithComment(source: string): boolean {
  let inImport = false;
  for (const raw of source.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (inImport || line.startsWith('import ') || /^export (type )?(\{|\*)/.test(line)) {
      inImport = !line.endsWith(';');
      continue;
    }
    return line.startsWith('//') || line.startsWith('/*');
  }
  return false;
}

const CLIENT_TOP = ['main.ts', 'context.ts'];
const within = (path: string, ...folders: string[]) => folders.some((folder) => path.startsWith(`${folder}/`));

/** What each layer may not import: dependencies point down, commands → api → core → schemas. */
function breaksLayers(from: string, to: string): boolean {
  if (within(from, 'core')) return within(to, 'commands', 'api', 'emulator') || CLIENT_TOP.includes(to);
  if (within(from, 'schemas')) return !within(to, 'schemas');
  if (within(from, 'api')) return within(to, 'commands', 'emulator') || CLIENT_TOP.includes(to);
  if (within(from, 'emulator')) return within(to, 'commands', 'api') || CLIENT_TOP.includes(to);
  return false;
}

export function upwardImports(graph: Graph): string[] {
  return [...graph].flatMap(([from, targets]) => targets.filter((to) => breaksLayers(from, to)).map((to) => `${from} -> ${to}`));
}

describe('the layout of src/', () => {
  const graph = sourceGraph();

  it('reads the imports it checks, type-only and dynamic ones included', () => {
    assert.ok(graph.get('main.ts')?.includes('core/errors.ts'), 'main.ts imports core/errors.ts');
    assert.deepEqual(importsOf("import type { A } from './a.js';\nexport { b } from '../b.js';\nconst c = await import('./c.js');\n// import { d } from './d.js';"), ['./a.js', '../b.js', './c.js']);
    for (const [file, targets] of graph) for (const target of targets) assert.ok(existsSync(join(SRC, target)), `${file} imports ${target}, which is not a module of src/`);
  });

  it('has no import circle', () => {
    assert.deepEqual(circlesOf(graph), []);
  });

  it('imports only downward: core never imports commands, api, the emulator or main; schemas only schemas; the emulator never the client', () => {
    assert.deepEqual(upwardImports(graph), []);
  });

  it('would name a circle and an upward import', () => {
    const bad: Graph = new Map([
      ['core/a.ts', ['core/b.ts']],
      ['core/b.ts', ['core/a.ts', 'api/data.ts']],
      ['schemas/x.ts', ['core/errors.ts']],
      ['emulator/y.ts', ['core/errors.ts', 'context.ts']],
      ['commands/z.ts', ['api/data.ts', 'core/a.ts']],
    ]);
    assert.deepEqual(circlesOf(bad), [['core/a.ts', 'core/b.ts']]);
    assert.deepEqual(upwardImports(bad), ['core/b.ts -> api/data.ts', 'schemas/x.ts -> core/errors.ts', 'emulator/y.ts -> context.ts']);
  });

  it('has every module say what it answers, in a comment before its code', () => {
    assert.equal(opensWithComment("import { a } from './a.js';\nimport {\n  b,\n} from './b.js';\n\n// What it answers.\nexport const c = 1;\n"), true);
    assert.equal(opensWithComment("import { a } from './a.js';\nexport const c = 1; // a trailing note\n"), false);
    const silent = [...graph.keys()].filter((file) => !opensWithComment(readFileSync(join(SRC, file), 'utf8')));
    assert.deepEqual(silent, []);
  });

  it('keeps src/core in folders by job, each saying what it answers, with only the modules everything uses at its top', () => {
    const core = join(SRC, 'core');
    const top = readdirSync(core, { withFileTypes: true });
    assert.deepEqual(top.filter((entry) => entry.isFile()).map((entry) => entry.name).sort(), ['README.md', 'errors.ts', 'signals.ts']);
    for (const folder of top.filter((entry) => entry.isDirectory())) {
      assert.ok(existsSync(join(core, folder.name, 'README.md')), `src/core/${folder.name} says what it answers in a README.md`);
    }
  });
});
