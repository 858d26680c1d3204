import { z } from 'zod';
import { batchFlags } from '../../../core/options.js';
import { shardFlag } from '../../../core/shard.js';

export const addBatchFlags = {
  batchSize: batchFlags.batchSize('objects'),
  /** Under the service's 6 MB request limit, with room to spare. */
  maxBatchBytes: batchFlags.maxBatchBytes(5_000_000),
  concurrency: batchFlags.concurrency(),
  shard: shardFlag('the objects'),
  failed: batchFlags.failed('append the objects of batches that could not be sent, as sent', 'data-add'),
  checkpoint: batchFlags.checkpoint('objects'),
  skipInvalid: batchFlags.skipInvalid('send the valid objects; append each invalid record here as {line, error, record}'),
  maxConsecutiveFailures: batchFlags.maxConsecutiveFailures(),
};

export const addOptionsSchema = z.object({
  batchSize: addBatchFlags.batchSize.schema,
  maxBatchBytes: addBatchFlags.maxBatchBytes.schema,
  concurrency: addBatchFlags.concurrency.schema,
  shard: addBatchFlags.shard.schema,
  checkpoint: addBatchFlags.checkpoint.schema,
  failed: addBatchFlags.failed.schema,
  skipInvalid: addBatchFlags.skipInvalid.schema,
  maxConsecutiveFailures: addBatchFlags.maxConsecutiveFailures.schema,
  wait: z.boolean().default(false),
  timeout: z.string().optional(),
});

export type AddOptions = z.infer<typeof addOptionsSchema>;
