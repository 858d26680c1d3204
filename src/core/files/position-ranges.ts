import * as z from 'zod';

/** How a checkpoint keeps a set of record positions (from 1): sorted, disjoint [first, last] ranges, so a run of them costs two numbers. */

export const rangesSchema = z.array(z.tuple([z.number().int().min(1), z.number().int().min(1)]));
export type Ranges = z.infer<typeof rangesSchema>;

export function inRanges(ranges: Ranges, position: number): boolean {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [first, last] = ranges[middle]!;
    if (position < first) high = middle - 1;
    else if (position > last) low = middle + 1;
    else return true;
  }
  return false;
}

/** `ranges` with the positions from `first` to `last` added, merged with those they touch. */
export function withRange(ranges: Ranges, first: number, last: number): Ranges {
  const merged: Ranges = [];
  for (const range of [...ranges, [first, last] as [number, number]].sort((a, b) => a[0] - b[0])) {
    const previous = merged.at(-1);
    if (previous !== undefined && range[0] <= previous[1] + 1) previous[1] = Math.max(previous[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}
