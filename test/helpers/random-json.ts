import { mulberry32 } from '../../src/emulator/http/faults.js';

/**
 * Seeded pseudo-random JSON texts, for checking that a hand-written fast check and its zod schema
 * agree over a fixed, reproducible sample (test/fuzz adds fast-check's generated inputs). Objects draw their keys and the values of `keys` from
 * edge cases (a missing, empty, non-string or repeated id; __proto__, wide characters, numbers
 * that serialise longer than written); texts come spaced at random, as files are.
 */
export function randomJsonTexts(seed: number, count: number, options: { keys?: readonly string[] } = {}): string[] {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const keys = options.keys ?? ['id'];
  const otherKeys = ['title', '__proto__', 'constructor', 'toString', 'ID', 'id ', '', 'é', 'nested', ...keys];
  const strings = ['"a"', '""', '" "', '"\\u0000"', '"é"', '"\\ud83d\\ude00"', '"😀"', '"0"', '"\\n"', '"id"', `"${'x'.repeat(40)}"`, '"\\u00e9\\/"'];
  const numbers = ['0', '-0', '1', '-1', '1.5', '1e20', '1E+20', '-1e-7', '123456789012345678901234567890', '1e400'];
  const spaced = (text: string) => (random() < 0.3 ? ` ${text} ` : text);
  const value = (depth: number): string => {
    const roll = random();
    if (roll < 0.3) return pick(strings);
    if (roll < 0.5) return pick(numbers);
    if (roll < 0.6) return pick(['true', 'false', 'null']);
    if (depth > 2) return '[]';
    if (roll < 0.75) return `[${Array.from({ length: Math.floor(random() * 3) }, () => spaced(value(depth + 1))).join(',')}]`;
    return object(depth + 1);
  };
  const member = (depth: number) => {
    const key = random() < 0.5 ? pick(keys) : pick(otherKeys);
    // The keys under test mostly get strings, so that valid records are common.
    const text = keys.includes(key) && random() < 0.6 ? pick(strings) : value(depth);
    return `${spaced(JSON.stringify(key))}:${spaced(text)}`;
  };
  const object = (depth: number) => `{${Array.from({ length: Math.floor(random() * 5) }, () => member(depth)).join(',')}}`;
  return Array.from({ length: count }, () => (random() < 0.85 ? object(0) : value(0)));
}
