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

/**
 * Adds the positions from `first` to `last` to `ranges`, in place, merged with those they touch.
 * A run records positions one by one (every invalid record set aside, every line answered), often
 * far apart: a copy and sort of all the ranges at each one made a run of 50,000 scattered
 * records take minutes. A binary search and one splice cost next to nothing, and in input
 * order the new range is found at the end.
 */
export function addRange(ranges: Ranges, first: number, last: number): void {
  const tail = ranges.at(-1);
  if (tail === undefined || first > tail[1] + 1) {
    ranges.push([first, last]);
    return;
  }
  // The first range that ends at most one before `first`, or after it: every range before it stays as it is.
  let low = 0;
  for (let high = ranges.length; low < high; ) {
    const middle = (low + high) >> 1;
    if (ranges[middle]![1] + 1 < first) low = middle + 1;
    else high = middle;
  }
  let end = low;
  let merged: [number, number] = [first, last];
  for (; end < ranges.length && ranges[end]![0] <= last + 1; end++) merged = [Math.min(merged[0], ranges[end]![0]), Math.max(merged[1], ranges[end]![1])];
  ranges.splice(low, end - low, merged);
}
