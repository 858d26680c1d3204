import type { CommandDecl } from '../declaration.js';
import { SHELLS } from './shells.js';

// `csafe completion SHELL`: the shell completion scripts, generated from the command tree.

export const completion: CommandDecl = {
  name: 'completion',
  description: 'Print the completion script of a shell: bash, zsh or fish',
  args: [{ name: '<shell>', help: SHELLS.join(', '), choices: SHELLS }],
  details: `
The scripts complete every group, verb and flag, the values of flags and arguments that take
fixed words (--output, --api-version, --fail-on, event types), files and directories where one is
expected, and profile names (read from the config file, loading nothing else). They are generated
from the command tree with every release; install one once:

  bash  source <(csafe completion bash) in ~/.bashrc, or
        csafe completion bash > ~/.local/share/bash-completion/completions/csafe
  zsh   csafe completion zsh > "\${fpath[1]}/_csafe", then start a new shell (compinit)
  fish  csafe completion fish > ~/.config/fish/completions/csafe.fish`,
  examples: ['source <(csafe completion bash)', 'csafe completion zsh > _csafe', 'csafe completion fish | head -3'],
  environment: [],
  run: async () => (await import('./print.js')).printCompletion,
};
