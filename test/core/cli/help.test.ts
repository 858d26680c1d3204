import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { ALL_VARIABLES, fitHelpText, groupHelpSections, HELP_LAYOUT, PROFILE_VARIABLES, renderHelpSections, SERVICE_VARIABLES, wrapWords } from '../../../src/core/cli/help.js';

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

describe('help text fitted to the terminal', () => {
  it('wraps words at spaces, every line after the first under the indent; a word longer than a line has one of its own', () => {
    assert.equal(wrapWords('one two three four', 9, '  '), 'one two\n  three\n  four');
    assert.equal(wrapWords('one two', 7, ''), 'one two', 'a line of exactly the width stays whole');
    assert.equal(wrapWords('a supercalifragilistic b', 8, ''), 'a\nsupercalifragilistic\nb');
    assert.equal(wrapWords('name   aligned', 40, ''), 'name   aligned', 'spaces within a line are kept');
    assert.equal(wrapWords('é é é', 3, ''), 'é é\né', 'characters are counted, not UTF-16 units');
  });

  it("re-wraps a paragraph's lines as one flow, keeps paragraphs apart, and starts anew after a line ending in ':'", () => {
    const text = 'csafe sends\nthe events it reads\nin batches.\n\nExit codes:\nzero when all went';
    assert.equal(fitHelpText(text, 20), 'csafe sends the\nevents it reads in\nbatches.\n\nExit codes:\nzero when all went');
  });

  it('keeps a first word longer than the line on a line of its own, with nothing before it', () => {
    assert.equal(wrapWords('supercalifragilistic b', 8, '  '), 'supercalifragilistic\n  b');
  });

  it('keeps a final line break, extra blank lines, and a table row right after prose, each as written', () => {
    for (const text of ['one\n\ntwo\n', 'a\n\n\nb', 'Prose here\n  --flag  what it does']) assert.equal(fitHelpText(text, 80), text);
  });

  it('wraps a row whose last column starts exactly 20 columns before the width', () => {
    const row = `  ${'x'.repeat(26)}  a b c d e f g h i j k l m`;
    assert.equal(fitHelpText(row, 50), `  ${'x'.repeat(26)}  a b c d e f g h i j\n${' '.repeat(30)}k l m`);
  });

  it('keeps the columns of a table row, wrapping its last column under itself, and leaves a row it cannot fit as it is', () => {
    const row = '  --checkpoint FILE  where the acknowledged lines are recorded as they arrive';
    assert.equal(fitHelpText(row, 200), row);
    assert.equal(fitHelpText(row, 50), '  --checkpoint FILE  where the acknowledged lines\n                     are recorded as they arrive');
    const wideFirstColumn = `  ${'x'.repeat(40)}  a description`;
    assert.equal(fitHelpText(wideFirstColumn, 50), wideFirstColumn, 'fewer than 20 columns left for the description');
    assert.equal(fitHelpText(`  ${'word '.repeat(8).trim()}`, 30), '  word word word word word\n  word word word', 'a row of one column wraps under its indent');
    const noColumns = ` ${'word '.repeat(8).trim()}`;
    assert.equal(fitHelpText(noColumns, 30), noColumns, 'no two spaces to find a column by');
    assert.equal(fitHelpText('Usage:\n  csafe events send FILE\nmore words here', 12), 'Usage:\n  csafe events send FILE\nmore words\nhere');
  });

  it('puts an option\'s description under its flag on a terminal too narrow to hold it beside, and lists the global flags but --version', () => {
    const program = new Command('csafe').version('1.0.0').option('--verbose', 'trace each request');
    const send = program.command('send').description('send events').option('--checkpoint <file>', 'where the acknowledged lines are recorded as they arrive');
    program.configureHelp({ ...HELP_LAYOUT, helpWidth: 40 });
    send.configureHelp({ ...HELP_LAYOUT, helpWidth: 40 });
    const narrow = send.helpInformation();
    assert.match(narrow, /\n {2}--checkpoint <file>\n {6}where the acknowledged lines are\n {6}recorded as they arrive\n/);
    assert.match(narrow, /\nGlobal Options:\n {2}--verbose\n {6}trace each request\n/);
    assert.doesNotMatch(narrow, /--version/);
    send.configureHelp({ ...HELP_LAYOUT, helpWidth: 120 });
    assert.match(send.helpInformation(), /\n {2}--checkpoint <file> +where the acknowledged lines are recorded as they arrive\n/);
  });

  it('keeps a description beside its flag while 20 columns are left for it, and a flag with no description on one line', () => {
    const program = new Command('csafe');
    const send = program.command('send').option('--checkpoint <file>', 'where the acknowledged lines are recorded').option('--quiet');
    // The widest term, `--checkpoint <file>`, is 19 columns: 2 before it and 2 after, and 20 for the description, is 43.
    send.configureHelp({ ...HELP_LAYOUT, helpWidth: 43 });
    assert.match(send.helpInformation(), /\n {2}--checkpoint <file> {2}where the\n {23}acknowledged lines\n/);
    send.configureHelp({ ...HELP_LAYOUT, helpWidth: 42 });
    const under = send.helpInformation();
    assert.match(under, /\n {2}--checkpoint <file>\n {6}where the acknowledged lines are\n/);
    assert.match(under, /\n {2}--quiet\n {2}-h, --help\n/, 'no line of spaces under a flag with nothing to say');
  });

  it("lists a group's verbs by name alone, without their arguments or options", () => {
    const group = new Command('events');
    group.command('send <file>').description('send events').option('--quiet');
    group.configureHelp({ ...HELP_LAYOUT, helpWidth: 80 });
    assert.match(group.helpInformation(), /\nCommands:\n {2}send {2,}send events\n/);
  });

  it("does not list a global flag the command declares with a meaning of its own", () => {
    const program = new Command('csafe').option('--api-key <key>', 'the key to send');
    const start = program.command('start').option('--api-key <key>', 'the only key the emulator accepts');
    start.configureHelp({ ...HELP_LAYOUT, helpWidth: 120 });
    const help = start.helpInformation();
    assert.equal(help.match(/--api-key/g)?.length, 1);
    assert.match(help, /the only key the emulator accepts/);
  });
});

describe('the Environment section fitted to a terminal', () => {
  it('wraps what a variable sets under itself beside the names, or puts it under the name when too narrow', () => {
    const sections = { examples: ['csafe events send ev.jsonl'], environment: ['CSAFE_API_KEY' as const] };
    assert.equal(
      renderHelpSections(sections, 60),
      [
        '',
        'Examples:',
        '  csafe events send ev.jsonl',
        '',
        'Environment:',
        "  CSAFE_API_KEY  API key or access token, over the profile's",
        '                 (--api-key over it)',
        '  NO_COLOR       set and not empty: no colour (as',
        '                 --no-color)',
      ].join('\n'),
    );
    assert.equal(
      renderHelpSections(sections, 36),
      [
        '',
        'Examples:',
        '  csafe events send ev.jsonl',
        '',
        'Environment:',
        '  CSAFE_API_KEY',
        '      API key or access token, over',
        "      the profile's (--api-key over",
        '      it)',
        '  NO_COLOR',
        '      set and not empty: no colour',
        '      (as --no-color)',
      ].join('\n'),
    );
    assert.match(renderHelpSections(sections, 37), /\n {2}CSAFE_API_KEY {2}API key/, 'beside at 20 columns for the description');
  });

  it('lists the variables of profiles and of the service in the order of the full list', () => {
    assert.deepEqual(PROFILE_VARIABLES, ['CSAFE_PROFILE', 'CSAFE_CONFIG_DIR']);
    assert.deepEqual(SERVICE_VARIABLES, ['CSAFE_API_KEY', 'CSAFE_BASE_URL', 'CSAFE_PROFILE', 'CSAFE_CONFIG_DIR', 'CSAFE_REQUEST_TIMEOUT', 'CSAFE_MAX_RETRIES', 'CSAFE_EMULATOR_DATA_DIR']);
    assert.deepEqual(ALL_VARIABLES.filter((name) => SERVICE_VARIABLES.includes(name)), SERVICE_VARIABLES);
  });
});
