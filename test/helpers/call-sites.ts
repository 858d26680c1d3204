// How often a csafe process ran its calls of JSON.parse and of node:crypto's hash(), read after it
// exited from V8's block coverage (NODE_V8_COVERAGE names the directory it is written to): a test
// can say how often a command parsed or hashed, whatever the machine's speed, with nothing in the
// process replaced. Each call site in the bundle counts as often as the innermost block holding it
// ran; the bundle's own code and the libraries bundled with it are counted, Node's internals not.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CallCounts {
  parse: number;
  hash: number;
}

/**
 * A call of each: the bundle calls node:crypto's hash() through the module's namespace (esbuild
 * writes `(0,import_node_crypto.hash)(`) or, where node:crypto is loaded when first needed
 * (core/bulk/shard.ts), as `nodeCrypto().hash(`; and JSON.parse by name only (see bundleCallsByNameOnly).
 */
const CALLS: Record<keyof CallCounts, RegExp> = { parse: /JSON\.parse\(/g, hash: /\(0,import_node_crypto\d*\.hash\)\(|\bnodeCrypto\(\)\.hash\(/g };

interface CoveredRange {
  startOffset: number;
  endOffset: number;
  count: number;
}

interface ScriptCoverage {
  url: string;
  functions: { functionName: string; ranges: CoveredRange[] }[];
}

/** The counts of the process whose coverage is in `dir` (NODE_V8_COVERAGE), over the scripts of dist/bundle. */
export function callCounts(dir: string): CallCounts {
  const counts: CallCounts = { parse: 0, hash: 0 };
  for (const script of bundleScripts(dir)) {
    const source = readFileSync(fileURLToPath(script.url), 'utf8');
    const ranges = script.functions.flatMap((f) => f.ranges);
    for (const name of Object.keys(CALLS) as (keyof CallCounts)[]) {
      for (const call of source.matchAll(CALLS[name])) counts[name] += timesRun(ranges, call.index);
    }
  }
  return counts;
}

/**
 * Ways to reach JSON.parse under another name, which the count would not see: passing it on
 * (`.map(JSON.parse)`), taking it out (`const { parse } = JSON`) or naming JSON otherwise
 * (`const J = JSON;`).
 */
const OTHER_NAMES = [/JSON\.parse(?!\()/, /\{[^{}]*\bparse\b[^{}]*\}\s*=\s*JSON\b/, /=\s*JSON\s*[;,\n]/];

/** Whether the bundle's code (outside comments) reaches JSON.parse only by calling it by that name. */
export function bundleCallsByNameOnly(bundleDir: string): boolean {
  return readdirSync(bundleDir)
    .filter((file) => /\.c?js$/.test(file))
    .every((file) => callsByNameOnly(readFileSync(join(bundleDir, file), 'utf8')));
}

export const callsByNameOnly = (source: string): boolean => {
  const code = withoutComments(source);
  return OTHER_NAMES.every((pattern) => !pattern.test(code));
};

const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** The coverage of the scripts of dist/bundle a process ran, from the directory NODE_V8_COVERAGE named. */
export function bundleScripts(dir: string): ScriptCoverage[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .flatMap((file) => (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { result: ScriptCoverage[] }).result)
    .filter((script) => script.url.startsWith('file:') && script.url.includes('/dist/bundle/'));
}

/** How often the code at `offset` ran: the count of the smallest range holding it (0 in a function never called). */
function timesRun(ranges: readonly CoveredRange[], offset: number): number {
  let innermost: CoveredRange | undefined;
  for (const range of ranges) {
    if (range.startOffset > offset || offset >= range.endOffset) continue;
    if (innermost === undefined || range.endOffset - range.startOffset <= innermost.endOffset - innermost.startOffset) innermost = range;
  }
  return innermost?.count ?? 0;
}
