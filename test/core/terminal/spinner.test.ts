import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { everyInterval, PROGRESS_LINE_EVERY_MS, startSpinner } from '../../../src/core/terminal/spinner.js';
import { bufferIO, framedTerminalIO } from '../../helpers/io.js';
import { FixedClock } from '../../helpers/clock.js';

describe('startSpinner', () => {
  it('draws on a terminal: its frames, and its updates', async () => {
    const terminal = bufferIO({ tty: true });
    Object.assign(terminal.io.stderr, { cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    const spinner = await startSpinner(terminal.io, 'Working');
    assert.match(terminal.stderr(), /Working/);
    spinner.update('Halfway');
    await new Promise((resolve) => setTimeout(resolve, 120));
    spinner.stop();
    assert.match(terminal.stderr(), /Halfway/);
    assert.equal(terminal.stdout(), '');
  });

  it('shows a text holding terminal controls inert (a status the service made up)', async () => {
    const terminal = bufferIO({ tty: true, env: { NO_COLOR: '1' } });
    Object.assign(terminal.io.stderr, { cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    const spinner = await startSpinner(terminal.io, 'Waiting');
    spinner.update('1 \u001b]0;pwned\u0007done \u009b2J');
    await new Promise((resolve) => setTimeout(resolve, 120));
    spinner.stop();
    assert.match(terminal.stderr(), /1 \^\[\]0;pwned\^Gdone \\u009b2J/);
    assert.doesNotMatch(terminal.stderr(), /\u001b\]0;|\u009b/, 'no OSC and no C1 CSI reaches the terminal');
  });

  // ora colours by the process's own terminal, which a test's buffer is not: test/e2e/progress draws on a real one.
  it('NO_COLOR draws its frames without colour, as everything else', async () => {
    const terminal = bufferIO({ tty: true, env: { NO_COLOR: '1' } });
    Object.assign(terminal.io.stderr, { cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    const spinner = await startSpinner(terminal.io, 'Working');
    await new Promise((resolve) => setTimeout(resolve, 120));
    spinner.stop();
    assert.match(terminal.stderr(), /Working/);
    assert.doesNotMatch(terminal.stderr(), /\u001b\[\d+m/, 'no colour code');
  });

  for (const env of [{ TERM: 'dumb' }, { CI: 'true' }, { CI: '1', TERM: 'xterm-256color' }]) {
    it(`on a terminal with ${JSON.stringify(env)}: no spinner and no escape codes, the plain progress line instead`, async () => {
      const clock = new FixedClock();
      const terminal = bufferIO({ tty: true, env });
      assert.equal(terminal.io.animate, false);
      const spinner = await startSpinner(terminal.io, 'Checking dump.jsonl…', clock.repeat);
      spinner.update('Checking dump.jsonl: 1000 lines');
      clock.advance(PROGRESS_LINE_EVERY_MS);
      spinner.stop();
      assert.equal(terminal.stderr(), 'Checking dump.jsonl…\nChecking dump.jsonl: 1000 lines\n');
    });
  }

  it('CI=false or CI=0 is no CI: the spinner draws', () => {
    for (const CI of ['false', '0', '']) assert.equal(bufferIO({ tty: true, env: { CI } }).io.animate, true, `CI=${CI}`);
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
      spinner.stop();
      assert.equal(streams.stderr(), '');
    }
  });
});

describe('startSpinner fitted to the terminal', () => {
  for (const columns of [40, 80]) {
    it(`draws no frame wider than ${columns} columns, shortening its text with …`, async () => {
      const terminal = framedTerminalIO(columns);
      const spinner = await startSpinner(terminal.io, `Checking ${'listings-export-'.repeat(8)}.jsonl…`);
      spinner.update(`Checking ${'listings-export-'.repeat(8)}.jsonl: 120000 lines`);
      await new Promise((resolve) => setTimeout(resolve, 120));
      spinner.stop();
      const frames = terminal.frames();
      assert.ok(frames.length >= 2, frames.join('\n'));
      for (const frame of frames) assert.ok([...frame].length <= columns, `${[...frame].length} > ${columns}: ${frame}`);
      assert.ok(frames.every((frame) => frame.endsWith('…')), frames.join('\n'));
    });
  }

  it('leaves a text that fits as it is', async () => {
    const terminal = framedTerminalIO(40);
    const spinner = await startSpinner(terminal.io, 'Checking a.jsonl…');
    spinner.stop();
    assert.match(terminal.frames()[0]!, /^\S Checking a\.jsonl…$/);
  });
});

describe('startSpinner on a stderr that is not a terminal', () => {
  it('is silent without --progress, and with --progress under --quiet', async () => {
    const clock = new FixedClock();
    for (const streams of [bufferIO({ tty: false }), bufferIO({ tty: false, progress: true, quiet: true })]) {
      const spinner = await startSpinner(streams.io, 'Working', clock.repeat);
      spinner.update('Halfway');
      clock.advance(PROGRESS_LINE_EVERY_MS * 3);
      spinner.stop();
      assert.equal(streams.stderr(), '');
    }
  });

  it('with --progress prints its text at once, then one plain line every period, and the last text when it ends', async () => {
    const clock = new FixedClock();
    const pipe = bufferIO({ tty: false, progress: true });
    const spinner = await startSpinner(pipe.io, 'Checking dump.jsonl…', clock.repeat);
    assert.equal(pipe.stderr(), 'Checking dump.jsonl…\n');
    spinner.update('Checking dump.jsonl: 1000 lines');
    spinner.update('Checking dump.jsonl: 2000 lines');
    clock.advance(PROGRESS_LINE_EVERY_MS - 1);
    assert.equal(pipe.stderr(), 'Checking dump.jsonl…\n', 'nothing before the period is up');
    clock.advance(1);
    clock.advance(PROGRESS_LINE_EVERY_MS);
    spinner.update('Checking dump.jsonl: \u001b[32m3000\u001b[39m lines');
    spinner.stop();
    assert.equal(pipe.stderr(), [
      'Checking dump.jsonl…',
      'Checking dump.jsonl: 2000 lines',
      'Checking dump.jsonl: 2000 lines',
      'Checking dump.jsonl: 3000 lines',
      '',
    ].join('\n'));
    const whenStopped = pipe.stderr();
    clock.advance(PROGRESS_LINE_EVERY_MS * 2);
    assert.equal(pipe.stderr(), whenStopped, 'nothing after it stopped');
  });

  it('with --progress prints the latest text when it stops, if not yet printed', async () => {
    const clock = new FixedClock();
    const pipe = bufferIO({ tty: false, progress: true });
    const uploading = await startSpinner(pipe.io, 'Uploading…', clock.repeat);
    uploading.update('Uploaded');
    uploading.stop();
    (await startSpinner(pipe.io, 'Waiting…', clock.repeat)).stop();
    assert.equal(pipe.stderr(), 'Uploading…\nUploaded\nWaiting…\n');
  });
});

describe('the clock of the plain progress lines', () => {
  it('ticks every period until cancelled, then never again', async () => {
    let ticks = 0;
    const cancel = everyInterval(10, () => ticks++);
    await new Promise((resolve) => setTimeout(resolve, 60));
    cancel();
    const whenCancelled = ticks;
    assert.ok(whenCancelled >= 1, `ticked ${whenCancelled} times in 60 ms`);
    await new Promise((resolve) => setTimeout(resolve, 40));
    assert.equal(ticks, whenCancelled);
  });
});
