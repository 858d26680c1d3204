// The shells csafe completes in, and where each one's script is kept in the package (completions/).
// Plain data: the command's declaration reads it, and --help loads nothing more.

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export const SCRIPT_FILES: Readonly<Record<Shell, string>> = { bash: 'completions/csafe.bash', zsh: 'completions/_csafe', fish: 'completions/csafe.fish' };
