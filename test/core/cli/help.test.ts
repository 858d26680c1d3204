import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { groupHelpSections, renderHelpSections } from '../../../src/core/cli/help.js';

describe('help sections', () => {
  it('lists the examples, then the variables in one fixed order, their descriptions aligned', () => {
    const text = renderHelpSections({ examples: ['csafe a', 'csafe b'], environment: ['NO_COLOR', 'CSAFE_API_KEY'] });
    const lines = text.split('\n');
    assert.deepEqual(lines.slice(0, 5), ['', 'Examples:', '  csafe a', '  csafe b', '']);
    assert.equal(lines[5], 'Environment:');
    assert.match(lines[6]!, /^ {2}CSAFE_API_KEY {2}\S/);
    assert.match(lines[7]!, /^ {2}NO_COLOR {7}\S/);
  });

  it('lists NO_COLOR for every command: its errors are red on a terminal', () => {
    assert.match(renderHelpSections({ examples: ['csafe a'], environment: [] }), /\nEnvironment:\n {2}NO_COLOR {2}\S[^\n]*$/);
  });

  it("a group's help takes its verbs' examples in turn, up to three, and every variable any of them reads", () => {
    const sections = groupHelpSections([
      { examples: ['csafe g one 1', 'csafe g one 2'], environment: ['CSAFE_PROFILE'] },
      { examples: ['csafe g two 1', 'csafe g two 2'], environment: ['CSAFE_API_KEY'] },
    ]);
    assert.match(renderHelpSections(sections), /\nExamples:\n {2}csafe g one 1\n {2}csafe g two 1\n {2}csafe g one 2\n\nEnvironment:\n {2}CSAFE_API_KEY .*\n {2}CSAFE_PROFILE .*\n {2}NO_COLOR /);
  });

  it("a group of one verb shows up to three of that verb's examples", () => {
    const sections = groupHelpSections([{ examples: ['csafe g one 1', 'csafe g one 2', 'csafe g one 3', 'csafe g one 4'], environment: [] }]);
    assert.match(renderHelpSections(sections), /\nExamples:\n {2}csafe g one 1\n {2}csafe g one 2\n {2}csafe g one 3\n\n/);
  });
});
