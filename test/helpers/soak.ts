// How big a soak test runs: CSAFE_SOAK_SCALE (0 < scale ≤ 1, default 1) shrinks every soak test
// alike, so CI runs them all in the time it has (.ci/run) and `npm run test:soak` at full size.
const scale = Number(process.env.CSAFE_SOAK_SCALE ?? 1);
if (!(scale > 0 && scale <= 1)) throw new Error(`CSAFE_SOAK_SCALE must be a number above 0 and at most 1, not ${process.env.CSAFE_SOAK_SCALE}`);

/** `full` (a count of records, bytes …) at the scale this run was given, at least `least`. */
export const soakSize = (full: number, least = 1): number => Math.max(least, Math.round(full * scale));
