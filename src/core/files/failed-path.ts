// The name of a failed file the user did not name; apart from FailedFile, so that a flag's help
// (core/cli/bulk-flags.ts, loaded by `--help`) names it without loading what writes one.

/**
 * Where failures go when the user named no file: beside the working directory, stamped with the
 * time (or, for help text, a placeholder). `what`: the file's kind, `failed` or `unconfirmed`.
 */
export function defaultFailedPath(command: string, now: number | string, what = 'failed'): string {
  const stamp = typeof now === 'string' ? now : new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `csafe-${command}-${what}-${stamp}.jsonl`;
}
