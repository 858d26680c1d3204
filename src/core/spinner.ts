import ora from 'ora';
import type { IOStreams } from './io.js';

export interface Spinner {
  update(text: string): void;
  succeed(text: string): void;
  fail(text: string): void;
  stop(): void;
}

const silent: Spinner = { update() {}, succeed() {}, fail() {}, stop() {} };

/** An ora spinner on stderr when the terminal allows it; otherwise nothing at all. */
export function startSpinner(io: IOStreams, text: string): Spinner {
  if (!io.animate) return silent;
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
