import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSpinner } from '../../src/core/spinner.js';
import { bufferIO } from '../helpers/io.js';

describe('startSpinner', () => {
  it('draws on a terminal: updates, then the final line of success or failure', async () => {
    for (const [end, symbol] of [['succeed', '✔'], ['fail', '✖']] as const) {
      const terminal = bufferIO({ tty: true });
      Object.assign(terminal.io.stderr, { cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
      const spinner = await startSpinner(terminal.io, 'Working');
      assert.match(terminal.stderr(), /Working/);
      spinner.update('Halfway');
      await new Promise((resolve) => setTimeout(resolve, 120));
      assert.match(terminal.stderr(), /Halfway/);
      spinner[end]('Finished');
      assert.match(terminal.stderr(), new RegExp(`${symbol}(\\u001b\\[39m)? Finished\\n$`));
      assert.equal(terminal.stdout(), '');
    }
  });

  it('stops without a final line', async () => {
    const terminal = bufferIO({ tty: true });
    Object.assign(terminal.io.stderr, { cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    const spinner = await startSpinner(terminal.io, 'Working');
    spinner.stop();
    const drawn = terminal.stderr();
    await new Promise((resolve) => setTimeout(resolve, 120));
    assert.equal(terminal.stderr(), drawn, 'nothing drawn after stop');
    assert.doesNotMatch(drawn, /[✔✖]/);
  });

  it('is silent in a pipe, with --quiet, and on a terminal of zero columns', async () => {
    for (const streams of [bufferIO({ tty: false }), bufferIO({ tty: true, quiet: true }), Object.assign(bufferIO({ tty: true }), {})]) {
      if (streams.io.animate) Object.assign(streams.io.stderr, { columns: 0 });
      const spinner = await startSpinner(streams.io, 'Working');
      spinner.update('a');
      spinner.succeed('b');
      spinner.fail('c');
      spinner.stop();
      assert.equal(streams.stderr(), '');
    }
  });
});
