import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigStore } from '../../src/core/config.js';
import { CorruptConfigError } from '../../src/core/errors.js';
import { tempDir } from '../helpers/cli.js';

describe('config store: a file it cannot read', () => {
  it('names a corrupt file and what is wrong with it, and leaves it alone', (t) => {
    const dir = tempDir('csafe-conf-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'config.json');
    const cases: Array<[string, RegExp]> = [
      ['{"profiles": {', /is not valid JSON/],
      ['[1]', /does not hold csafe profiles: expected a JSON object/],
      ['{"profiles": {"default": {"timeout": 5}}}', /does not hold csafe profiles: profiles\.default\.timeout: expected a string/],
    ];
    for (const [text, reason] of cases) {
      writeFileSync(path, text);
      const store = new ConfigStore(dir);
      const corrupt = (error: unknown) => error instanceof CorruptConfigError && error.message.startsWith(`config file ${path} `) && reason.test(error.message);
      assert.throws(() => store.profile('default'), corrupt);
      assert.throws(() => store.set('default', 'user_id', 'u'), corrupt);
      assert.equal(readFileSync(path, 'utf8'), text, 'nothing written over it');
    }
  });
});
