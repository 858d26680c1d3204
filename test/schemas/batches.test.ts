import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { batchSchema } from '../../src/schemas/batches.js';
import { batchProgress } from '../../src/commands/batch/shared/render.js';

describe('batchSchema', () => {
  it('reads the spec example’s WATING_FOR_UPLOAD as WAITING_FOR_UPLOAD, and keeps statuses and fields it does not know', () => {
    const created = batchSchema.parse({ batch_id: 'bat_1', type: 'text', batch_status: 'WATING_FOR_UPLOAD', upload_url: 'https://u', download_url: null });
    assert.equal(created.batch_status, 'WAITING_FOR_UPLOAD');
    const later = batchSchema.parse({ batch_id: 'bat_1', type: 'text', batch_status: 'QUEUED', priority: 'low', batch_count: 3, success_count: 1, pending_count: 2, error_count: 0, cancelled_count: 0 });
    assert.equal(later.batch_status, 'QUEUED');
    assert.equal(later.priority, 'low');
    assert.equal(batchProgress(later), 'QUEUED: 1/3 succeeded, 0 failed, 2 pending, 0 cancelled');
    assert.equal(batchProgress(created), 'WAITING_FOR_UPLOAD');
  });
});
