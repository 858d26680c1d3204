import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeForFiles, type SourcedPart } from '../../../src/commands/classify/parts.js';

const parts: SourcedPart[] = [
  { origin: 'post.txt', part: { type: 'text', text: 'hi' } },
  { origin: 'a.png', part: { type: 'image', source: { type: 'base64', data: 'AAAA' } } },
  { origin: 'b.png', part: { type: 'image', source: { type: 'base64', data: 'AAAA' } } },
];

describe('describeForFiles', () => {
  it('names the file a part came from', () => {
    assert.equal(describeForFiles({ path: ['content', 2, 'source', 'data'], message: 'too big' }, parts), 'b.png: content[2].source.data: too big');
  });

  it('names the flag of a top-level field once, and the path within it', () => {
    assert.equal(describeForFiles({ path: ['metadata'], message: 'too big' }, parts), '--metadata: too big');
    assert.equal(describeForFiles({ path: ['user_id'], message: 'empty' }, parts), '--user-id: empty');
    assert.equal(describeForFiles({ path: ['metadata', 'k'], message: 'expected a string' }, parts), '--metadata: metadata.k: expected a string');
    assert.equal(describeForFiles({ path: ['colour'], message: 'unknown field' }, parts), 'request: colour: unknown field');
  });

  it('lists the images for an image count, and every input for the whole request', () => {
    assert.equal(describeForFiles({ path: ['content'], message: 'at most 20 images' }, parts), 'at most 20 images (a.png, b.png)');
    assert.equal(describeForFiles({ path: [], message: 'request too large' }, parts), 'request too large (post.txt, a.png, b.png)');
  });
});
