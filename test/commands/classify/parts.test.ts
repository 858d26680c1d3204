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

  it('names the flag of a top-level field', () => {
    assert.equal(describeForFiles({ path: ['metadata'], message: 'too big' }, parts), '--metadata: metadata: too big');
    assert.equal(describeForFiles({ path: ['user_id'], message: 'empty' }, parts), '--user-id: user_id: empty');
  });

  it('lists the images for an image count, and every input for the whole request', () => {
    assert.equal(describeForFiles({ path: ['content'], message: 'at most 20 images' }, parts), 'at most 20 images (a.png, b.png)');
    assert.equal(describeForFiles({ path: [], message: 'request too large' }, parts), 'request too large (post.txt, a.png, b.png)');
  });
});
