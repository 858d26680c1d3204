import { oneByOne, runLanesInGroups, type LaneOptions } from '../../src/core/bulk/lanes.js';

/** The lanes over items read one by one, as the tests feed them. */
export const runLanes = <T>(items: AsyncIterable<T>, options: LaneOptions<T>, work: (batch: T[]) => Promise<void>): Promise<void> =>
  runLanesInGroups(oneByOne(items), options, work);
