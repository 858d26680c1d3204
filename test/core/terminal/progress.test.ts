import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fittedProgressLine, formatBytes, formatClock, progressLine, startProgressBar } from '../../../src/core/terminal/progress.js';
import { PROGRESS_LINE_EVERY_MS } from '../../../src/core/terminal/spinner.js';
import { bufferIO, framedTerminalIO } from '../../helpers/io.js';
import { FixedClock } from '../../helpers/clock.js';

describe('progress bar', () => {
  it('formats sizes in decimal units and times as a clock', () => {
    assert.deepEqual([0, 999, 1000, 1_500_000, 5_368_709_120].map(formatBytes), ['0 B', '999 B', '1.0 kB', '1.5 MB', '5.4 GB']);
    assert.deepEqual([0, 7.4, 750, 3723].map(formatClock), ['0:00', '0:07', '12:30', '1:02:03']);
  });

  it('shows bytes sent of the total, the rate and the time left', () => {
    assert.equal(
      progressLine({ sent: 300_000_000, total: 1_000_000_000, elapsedMs: 2_500 }, 10),
      '[███░░░░░░░]   30%  300.0 MB / 1.0 GB  120.0 MB/s  ETA 0:06',
    );
    assert.equal(progressLine({ sent: 0, total: 1_000, elapsedMs: 0 }, 4), '[░░░░]    0%  0 B / 1.0 kB', 'no rate before any byte moved');
    assert.equal(progressLine({ sent: 1_000, total: 1_000, elapsedMs: 1_000 }, 4), '[████]  100%  1.0 kB / 1.0 kB  1.0 kB/s  ETA 0:00');
  });

  it('draws on stderr only on a terminal that has columns', async () => {
    const terminal = bufferIO({ tty: true });
    // ora moves the cursor as on a real terminal.
    Object.assign(terminal.io.stderr, { cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    const bar = await startProgressBar(terminal.io, 'Uploading');
    bar.update({ sent: 500_000, total: 1_000_000, elapsedMs: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 120));
    bar.stop();
    assert.match(terminal.stderr(), /Uploading \[█{10}░{10}\]   50%  500\.0 kB \/ 1\.0 MB  500\.0 kB\/s  ETA 0:01/);
    assert.equal(terminal.stdout(), '');

    const unsized = bufferIO({ tty: true });
    Object.assign(unsized.io.stderr, { columns: 0 });
    (await startProgressBar(unsized.io, 'Uploading')).stop();
    assert.equal(unsized.stderr(), '', 'a terminal of zero columns gets no animation');

    const pipe = bufferIO({ tty: false });
    const silent = await startProgressBar(pipe.io, 'Uploading');
    silent.update({ sent: 1, total: 2, elapsedMs: 1_000 });
    silent.stop();
    assert.equal(pipe.stderr(), '');
  });
});

describe('progress bar edges', () => {
  it('caps units at TB and rounds the clock, never below zero', () => {
    assert.deepEqual([999_999, 1_000_000_000_000, 2_000_000_000_000_000].map(formatBytes), ['1000.0 kB', '1.0 TB', '2000.0 TB']);
    assert.deepEqual([-5, 59.4, 59.5, 3599.5, 36_000].map(formatClock), ['0:00', '0:59', '1:00', '1:00:00', '10:00:00']);
  });

  it('draws a full bar for an empty total and never past full', () => {
    assert.equal(progressLine({ sent: 0, total: 0, elapsedMs: 0 }), `[${'█'.repeat(20)}]  100%  0 B / 0 B`);
    assert.equal(progressLine({ sent: 20, total: 10, elapsedMs: 0 }, 2), '[██]  100%  20 B / 10 B');
    assert.equal(progressLine({ sent: 1, total: 3, elapsedMs: 0 }, 3), '[█░░]   33%  1 B / 3 B');
  });

  it('shows a rate from 200 ms on', () => {
    assert.equal(progressLine({ sent: 500, total: 1_000, elapsedMs: 199 }, 2), '[█░]   50%  500 B / 1.0 kB');
    assert.equal(progressLine({ sent: 0, total: 1_000, elapsedMs: 1_000 }, 2), '[░░]    0%  0 B / 1.0 kB', 'no rate before a byte moved');
    assert.equal(progressLine({ sent: 500, total: 1_000, elapsedMs: 200 }, 2), '[█░]   50%  500 B / 1.0 kB  2.5 kB/s  ETA 0:00');
    assert.equal(progressLine({ sent: 100, total: 1_000, elapsedMs: 1_000 }, 2), '[░░]   10%  100 B / 1.0 kB  100 B/s  ETA 0:09');
  });
});

describe('progress bar fitted to the terminal', () => {
  const samples = [
    { sent: 0, total: 1_000_000_000, elapsedMs: 0 },
    { sent: 300_000_000, total: 1_000_000_000, elapsedMs: 2_500 },
    { sent: 999_999_999_999, total: 1_000_000_000_000, elapsedMs: 3_600_000 },
  ];
  const labels = ['Uploading 1.0 GB', 'Uploading listings-export-2026-11-21-full.jsonl (1.0 TB)'];

  for (const columns of [40, 80]) {
    it(`is never wider than ${columns} columns, and keeps the percentage`, () => {
      for (const label of labels) {
        for (const progress of samples) {
          const line = fittedProgressLine(label, progress, columns);
          assert.ok([...line].length <= columns, `${[...line].length} > ${columns}: ${line}`);
          assert.match(line, /\d+%/, line);
        }
      }
    });
  }

  it('drops rate and ETA before the bar, and shortens the label last', () => {
    const progress = { sent: 300_000_000, total: 1_000_000_000, elapsedMs: 2_500 };
    assert.equal(fittedProgressLine('Uploading 1.0 GB', progress, 100), `Uploading 1.0 GB ${progressLine(progress)}`);
    assert.equal(fittedProgressLine('Uploading 1.0 GB', progress, 80), 'Uploading 1.0 GB [███░░░░░░░]   30%  300.0 MB / 1.0 GB  120.0 MB/s  ETA 0:06');
    assert.equal(fittedProgressLine('Uploading 1.0 GB', progress, 60), 'Uploading 1.0 GB [███░░░░░░░]   30%  300.0 MB / 1.0 GB');
    assert.equal(fittedProgressLine('Uploading 1.0 GB', progress, 40), 'Uploading 1.0 GB [███░░░░░░░]   30%');
    assert.equal(fittedProgressLine(labels[1]!, progress, 40), 'Uploading listings-e… [███░░░░░░░]   30%');
    assert.equal(fittedProgressLine('Uploading 1.0 GB', progress, undefined), `Uploading 1.0 GB ${progressLine(progress)}`, 'no width known: the whole line');
    assert.equal(fittedProgressLine('Uploading 1.0 GB', progress, 20), 'Uploading 1.0…   30%', 'too narrow for the bar: the label cut, and the percentage');
    assert.equal(fittedProgressLine('Uploading 1.0 GB', progress, 5), '…   30%', 'the percentage kept on the narrowest');
    const whole = `Uploading 1.0 GB ${progressLine(progress)}`;
    assert.equal(fittedProgressLine('Uploading 1.0 GB', progress, [...whole].length), whole, 'a line exactly as wide as the terminal is kept whole');
    assert.equal(fittedProgressLine(labels[1]!, progress, 35), 'Uploading listi… [███░░░░░░░]   30%', 'the bar kept while 16 columns are left for the label');
    assert.equal(fittedProgressLine(labels[1]!, progress, 34), 'Uploading listings-export-2…   30%', 'and dropped below that');
  });

  for (const columns of [40, 80]) {
    it(`draws frames no wider than a terminal of ${columns} columns`, async () => {
      const terminal = framedTerminalIO(columns);
      const bar = await startProgressBar(terminal.io, labels[1]!);
      bar.update(samples[1]!);
      await new Promise((resolve) => setTimeout(resolve, 120));
      bar.stop();
      const frames = terminal.frames();
      assert.ok(frames.some((frame) => /30%/.test(frame)), frames.join('\n'));
      for (const frame of frames) assert.ok([...frame].length <= columns, `${[...frame].length} > ${columns}: ${frame}`);
    });
  }

  it('on a stderr that is not a terminal, with --progress: plain lines, no bar and no escape codes', async () => {
    const clock = new FixedClock();
    const pipe = bufferIO({ tty: false, progress: true });
    const bar = await startProgressBar(pipe.io, 'Uploading 1.0 GB', clock.repeat);
    bar.update(samples[1]!);
    clock.advance(PROGRESS_LINE_EVERY_MS);
    bar.stop();
    assert.equal(pipe.stderr(), `Uploading 1.0 GB\nUploading 1.0 GB  30%  300.0 MB / 1.0 GB  120.0 MB/s  ETA 0:06\n`);
  });
});
