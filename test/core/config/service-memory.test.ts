import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECHECK_AFTER_MS, SERVICE_MEMORY_FILE, ServiceMemory } from '../../../src/core/config/service-memory.js';
import { tempDir } from '../../helpers/cli.js';

const DAY = 24 * 60 * 60 * 1000;

describe('what csafe remembers of a service, per profile', () => {
  it('an endpoint the service lacks is remembered for its profile and base URL, and asked for again after a week', async (t) => {
    const dir = tempDir('csafe-memory-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'service.json');
    let now = Date.parse('2026-11-27T10:00:00Z');
    const clock = () => now;
    const prod = new ServiceMemory(path, { profile: 'default', baseUrl: 'https://api.example' }, clock);
    assert.equal(prod.lacks('upload-url'), false, 'nothing known: ask');
    await prod.remember('upload-url', true);
    assert.equal(prod.lacks('upload-url'), true);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(new ServiceMemory(path, { profile: 'staging', baseUrl: 'https://api.example' }, clock).lacks('upload-url'), false, 'another profile knows nothing');
    assert.equal(new ServiceMemory(path, { profile: 'default', baseUrl: 'https://other.example' }, clock).lacks('upload-url'), false, 'the profile now points elsewhere');
    now += RECHECK_AFTER_MS - DAY;
    assert.equal(prod.lacks('upload-url'), true);
    now += 2 * DAY;
    assert.equal(prod.lacks('upload-url'), false, 'a week on, it is asked for again');
    await prod.remember('upload-url', false);
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), { profiles: { default: { base_url: 'https://api.example/', lacking: {} } } });
  });

  it('asks again exactly a week after it learned, not a moment before; and forgetting what it never knew writes nothing', async (t) => {
    assert.equal(RECHECK_AFTER_MS, 7 * DAY);
    assert.equal(SERVICE_MEMORY_FILE, 'service.json');
    const dir = tempDir('csafe-memory-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, SERVICE_MEMORY_FILE);
    let now = Date.parse('2026-11-27T10:00:00Z');
    const memory = new ServiceMemory(path, { profile: 'default', baseUrl: 'https://api.example' }, () => now);
    await memory.remember('events-sync', false);
    assert.equal(existsSync(path), false, 'nothing learned, nothing written');
    await memory.remember('events-sync', true);
    now += 7 * DAY - 1;
    assert.equal(memory.lacks('events-sync'), true);
    now += 1;
    assert.equal(memory.lacks('events-sync'), false);
    assert.equal(new ServiceMemory(path, { profile: 'default', baseUrl: 'not a url' }, () => now).lacks('events-sync'), false, 'a base URL that does not parse is kept as it is, and matches nothing');
  });

  it('keeps no user name or password of a base URL', async (t) => {
    const dir = tempDir('csafe-memory-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'service.json');
    await new ServiceMemory(path, { profile: 'default', baseUrl: 'https://ci:s3cret@api.example/' }, Date.now).remember('upload-url', true);
    assert.doesNotMatch(readFileSync(path, 'utf8'), /ci|s3cret/);
    assert.equal(new ServiceMemory(path, { profile: 'default', baseUrl: 'https://api.example/' }, Date.now).lacks('upload-url'), true, 'the same service');
  });

  it('a file it cannot read is an empty memory, never an error, and is replaced when something is learned', async (t) => {
    const dir = tempDir('csafe-memory-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'service.json');
    const memory = new ServiceMemory(path, { profile: 'default', baseUrl: 'https://api.example' }, () => Date.parse('2026-11-27T10:00:00Z'));
    for (const text of ['{"profiles": {', '[1]', '{"profiles": {"default": {"base_url": "https://api.example", "lacking": {"upload-url": "yesterday"}}}}']) {
      writeFileSync(path, text);
      assert.equal(memory.lacks('upload-url'), false, text);
    }
    await memory.remember('upload-url', true);
    assert.equal(memory.lacks('upload-url'), true);
  });

  it('a directory in its place, or a read-only config directory, leaves the memory empty and the run unharmed', async (t) => {
    const dir = tempDir('csafe-memory-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'service.json');
    mkdirSync(path);
    const memory = new ServiceMemory(path, { profile: 'default', baseUrl: 'https://api.example' }, Date.now);
    assert.equal(memory.lacks('upload-url'), false);
    await memory.remember('upload-url', true);
    assert.equal(statSync(path).isDirectory(), true, 'what csafe did not create is left as it is');
  });
});
