import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TokenTable } from '../../src/emulator/stores/token-table.js';

test('expired access tokens are pruned: 100,000 creations do not grow the table', () => {
  const table = new TokenTable();
  let now = 0;
  table.add('kept', now + 10 ** 12, now);
  for (let index = 0; index < 100_000; index++) {
    table.add(`token-${index}`, now + 300_000, now);
    now += 301_000;
  }
  assert.ok(table.size < 2_000, `${table.size} tokens kept`);
  assert.deepEqual(table.get('kept'), { expiresAt: 10 ** 12 });
  assert.deepEqual(table.get('token-99999'), { expiresAt: now - 301_000 + 300_000 });
});
