import type { IOStreams } from './io.js';
import { fitToWidth, spinnerTextColumns, startSpinner, type Repeat } from './spinner.js';
import type { UploadProgress } from '../upload/file-upload.js';

/** How an upload's progress is shown: a bar fitted to the terminal, or plain lines in a log. */

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];

/** Decimal units, as transfer rates are usually quoted: 1.5 GB, 120.3 MB. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** `0:07`, `12:30`, `1:02:03`. */
export function formatClock(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** The pieces of a progress line; rate and ETA once a moment has passed. */
function progressPieces({ sent, total, elapsedMs }: UploadProgress, barWidth: number) {
  const fraction = total > 0 ? Math.min(1, sent / total) : 1;
  const filled = Math.round(fraction * barWidth);
  const pieces = {
    bar: `[${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}]`,
    percent: `${Math.floor(fraction * 100)}%`.padStart(4),
    bytes: `${formatBytes(sent)} / ${formatBytes(total)}`,
    rate: undefined as string | undefined,
  };
  if (elapsedMs >= 200 && sent > 0) {
    const rate = sent / (elapsedMs / 1000);
    pieces.rate = `${formatBytes(rate)}/s  ETA ${formatClock((total - sent) / rate)}`;
  }
  return pieces;
}

const joined = (...pieces: Array<string | undefined>) => pieces.filter((piece) => piece !== undefined).join('  ');

/** `[██████░░░░░░░░░░░░░░]  30%  300.0 MB / 1.0 GB  120.0 MB/s  ETA 0:06`; rate and ETA once a moment has passed. */
export function progressLine(progress: UploadProgress, width = 20): string {
  const { bar, percent, bytes, rate } = progressPieces(progress, width);
  return joined(bar, percent, bytes, rate);
}

/** The shortest the label is cut to before the bar goes. */
const MIN_LABEL_COLUMNS = 16;

/**
 * The label and its progress line in at most `columns` characters (all of it when the width is
 * not known). What goes first, as the terminal narrows: the bar shrinks to 10, then rate and ETA
 * go, then the bytes, then the label is cut (to 16 at the least), then the bar goes; the
 * percentage stays to the end.
 */
export function fittedProgressLine(label: string, progress: UploadProgress, columns: number | undefined): string {
  const whole = `${label} ${progressLine(progress)}`;
  if (columns === undefined) return whole;
  const { bar, percent, bytes, rate } = progressPieces(progress, 10);
  const candidates = [whole, `${label} ${joined(bar, percent, bytes, rate)}`, `${label} ${joined(bar, percent, bytes)}`, `${label} ${joined(bar, percent)}`];
  const fitting = candidates.find((line) => [...line].length <= columns);
  if (fitting !== undefined) return fitting;
  const withBar = ` ${joined(bar, percent)}`;
  if (columns - withBar.length >= MIN_LABEL_COLUMNS) return fitToWidth(label, columns - withBar.length) + withBar;
  return fitToWidth(label, Math.max(1, columns - percent.length - 2)) + `  ${percent}`;
}

/** `Uploading 1.0 GB  30%  300.0 MB / 1.0 GB  120.0 MB/s  ETA 0:06`: for a log, where a bar is only noise. */
function plainProgressLine(label: string, progress: UploadProgress): string {
  const { percent, bytes, rate } = progressPieces(progress, 0);
  return `${label}  ${joined(percent.trimStart(), bytes, rate)}`;
}

export interface ProgressBar {
  update(progress: UploadProgress): void;
  stop(): void;
}

/**
 * A progress bar on stderr fitted to its width (drawn by the spinner, so only when io.animate);
 * plain lines now and then with --progress on a stderr that is not a terminal; nothing otherwise.
 */
export async function startProgressBar(io: IOStreams, label: string, repeat?: Repeat): Promise<ProgressBar> {
  const spinner = await startSpinner(io, label, repeat);
  const line = (progress: UploadProgress) => (io.progressLines ? plainProgressLine(label, progress) : fittedProgressLine(label, progress, spinnerTextColumns(io)));
  return {
    update: (progress) => spinner.update(line(progress)),
    stop: () => spinner.stop(),
  };
}
