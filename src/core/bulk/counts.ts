/**
 * The counts every bulk command keeps, with the same names in each one's summary (JSON keys as
 * written here). A record read is valid or invalid; a valid one of this worker's shard is sent
 * (acknowledged), failed (safe to resend), unconfirmed (may have been applied, not safe to
 * resend), skipped because the checkpoint holds it, or not sent at all (the run was interrupted).
 * An invalid record an earlier run set aside with --skip-invalid, which the checkpoint holds, is
 * skipped by it too: counted in `skipped_checkpoint`, not in `valid` or `invalid`.
 */
export interface BulkCounts {
  read: number;
  valid: number;
  invalid: number;
  sent: number;
  failed: number;
  unconfirmed: number;
  skipped_checkpoint: number;
  other_shards: number;
  requests: number;
  retries: number;
}

export const emptyCounts = (): BulkCounts => ({
  read: 0,
  valid: 0,
  invalid: 0,
  sent: 0,
  failed: 0,
  unconfirmed: 0,
  skipped_checkpoint: 0,
  other_shards: 0,
  requests: 0,
  retries: 0,
});
