import type { IOStreams } from './io.js';

export interface Spinner {
  update(text: string): void;
  succeed(text: string): void;
  fail(text: string): void;
  stop(): void;
}

const silent: Spinner = { update() {}, succeed() {}, fail() {}, stop() {} };

/** An ora spinner on stderr when the terminal allows it; otherwise nothing at all (and ora is never loaded). */
export async function startSpinner(io: IOStreams, text: string): Promise<Spinner> {
  // A terminal of zero columns (a pty nobody sized, as under `script` in CI) would make ora clear lines without end.
  if (!io.animate || (io.stderr as { columns?: number }).columns === 0) return silent;
  const { default: ora } = await import('ora');
  // discardStdin would swallow input we may be reading (e.g. `-` for stdin).
  const spinner = ora({ text, stream: io.stderr, isEnabled: true, discardStdin: false }).start();
  return {
    update: (next) => {
      spinner.text = next;
    },
    succeed: (done) => spinner.succeed(done),
    fail: (failed) => spinner.fail(failed),
    stop: () => spinner.stop(),
  };
}
