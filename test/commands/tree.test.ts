import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import type { App } from '../../src/commands/app.js';
import { isGroup, walkTree } from '../../src/commands/declaration.js';
import { addNode } from '../../src/commands/program.js';
import { TREE } from '../../src/commands/tree.js';
import { flagSpec } from '../../src/core/cli/flags.js';

const app: App = { action: () => async () => undefined };

/** commander's program built from the whole tree, as main.ts builds the part a command line invokes. */
function wholeProgram(): Command {
  const program = new Command('csafe');
  for (const node of TREE) addNode(program, node, app);
  return program;
}

/** Every command of commander's program under `command`, by the words that name it. */
function* commanderCommands(command: Command, parent: readonly string[] = []): Generator<[string, Command]> {
  for (const sub of command.commands) {
    const path = [...parent, sub.name()];
    yield [path.join(' '), sub];
    yield* commanderCommands(sub, path);
  }
}

describe('the command tree', () => {
  const declared = new Map([...walkTree(TREE)].map(({ path, node }) => [path.join(' '), node]));
  const built = new Map(commanderCommands(wholeProgram()));

  it('walks every group and verb, each group before its verbs', () => {
    const paths = [...declared.keys()];
    assert.ok(paths.includes('classify') && paths.includes('data add') && paths.includes('stream parts'));
    assert.ok(paths.indexOf('data') < paths.indexOf('data add'));
    assert.equal(paths.length, new Set(paths).size, 'no command declared twice');
  });

  it('has a declaration for every commander command, and a commander command for every declaration', () => {
    assert.deepEqual([...built.keys()].sort(), [...declared.keys()].sort());
  });

  it("gives each command exactly its declared flags and arguments", () => {
    for (const [path, node] of declared) {
      const command = built.get(path)!;
      if (isGroup(node)) {
        assert.deepEqual(command.options, [], `${path} is a group: its verbs take the flags`);
        continue;
      }
      const flags = Object.entries(node.flags ?? {}).map(([key, flag]) => flagSpec(key, flag));
      assert.deepEqual(command.options.map((option) => option.flags), flags, path);
      assert.deepEqual(command.registeredArguments.map((argument) => argument.name()), (node.args ?? []).map((arg) => arg.name.replace(/[<>[\].]/g, '')), path);
    }
  });
});
