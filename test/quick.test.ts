import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { helpAskedFor, prebuiltHelp } from '../src/quick.js';

describe('what bin/csafe answers before loading the bundle (src/quick.ts)', () => {
  const texts = () => ({ '': 'root help\n', classify: 'classify help\n', 'data add': 'data add help\n' });

  it('a command line asking for the help of a command, and nothing else', () => {
    assert.equal(helpAskedFor(['--help']), '');
    assert.equal(helpAskedFor(['classify', '-h']), 'classify');
    assert.equal(helpAskedFor(['data', 'add', '--help']), 'data add');
    assert.equal(helpAskedFor(['classify', '--text', 'hi', '--help']), undefined, 'a flag before it: main() decides');
    assert.equal(helpAskedFor(['--profile', 'p', 'classify', '--help']), undefined);
    assert.equal(helpAskedFor(['classify']), undefined);
    assert.equal(helpAskedFor(['--help', 'classify']), undefined);
    assert.equal(helpAskedFor([]), undefined);
  });

  it('prints the text made at build time only where main() would print that same text: not a terminal, no COLUMNS', () => {
    assert.equal(prebuiltHelp(['data', 'add', '--help'], {}, false, texts), 'data add help\n');
    assert.equal(prebuiltHelp(['--help'], {}, false, texts), 'root help\n');
    assert.equal(prebuiltHelp(['data', 'add', '--help'], {}, true, texts), undefined, 'a terminal has a width of its own');
    assert.equal(prebuiltHelp(['data', 'add', '--help'], { COLUMNS: '120' }, false, texts), undefined);
    assert.equal(prebuiltHelp(['data', 'add', '--help'], { COLUMNS: '' }, false, texts), undefined);
  });

  it('leaves main() what the build did not make: an unknown command, a build without help.json, a key of Object.prototype', () => {
    assert.equal(prebuiltHelp(['data', 'nope', '--help'], {}, false, texts), undefined);
    assert.equal(prebuiltHelp(['classify', '--help'], {}, false, () => undefined), undefined);
    assert.equal(prebuiltHelp(['constructor', '--help'], {}, false, texts), undefined);
    assert.equal(prebuiltHelp(['classify', '--help'], {}, false), undefined, "tsc's output has no help.json beside it");
  });
});
