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
export function addRange(ranges: Ranges, first: number, last: number): number {
  const tail = ranges.at(-1);
  if (tail === undefined || first > tail[1] + 1) {
    ranges.push([first, last]);
    return ranges.length - 1;
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
  return low;
}

/**
 * The JSON text of one list of ranges (`[[1,2],[4,9]]`), written again at every save of a
 * checkpoint, kept between saves: only the ranges from the first one changed since (addRange
 * says which) are written anew. A run of scattered records makes thousands of ranges, and
 * writing them all at every acknowledgement made the run's time grow with the square of its
 * length (12,000 lines, 30 % invalid, one request a line: 3.4 s of 10 s in JSON.stringify).
 */
export class RangesText {
  /** `[` and each range written, with its comma. */
  private text = '[';
  /** Where the text of each range written ends. */
  private readonly ends: number[] = [];
  private changedFrom = 0;

  /** The ranges from `index` on changed (addRange's answer). */
  changed(index: number): void {
    this.changedFrom = Math.min(this.changedFrom, index);
  }

  of(ranges: Ranges): string {
    const from = Math.min(this.changedFrom, ranges.length, this.ends.length);
    this.ends.length = from;
    let text = from === 0 ? '[' : this.text.slice(0, this.ends[from - 1]);
    for (let index = from; index < ranges.length; index++) {
      const [first, last] = ranges[index]!;
      text += `[${first},${last}],`;
      this.ends.push(text.length);
    }
    this.text = text;
    this.changedFrom = ranges.length;
    return ranges.length === 0 ? '[]' : `${text.slice(0, -1)}]`;
  }
}
