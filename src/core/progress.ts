import type { IOStreams } from './io.js';
import { startSpinner } from './spinner.js';
import type { UploadProgress } from './upload.js';

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

/** `[██████░░░░░░░░░░░░░░]  30%  300.0 MB / 1.0 GB  120.0 MB/s  ETA 0:06`; rate and ETA once a moment has passed. */
export function progressLine({ sent, total, elapsedMs }: UploadProgress, width = 20): string {
  const fraction = total > 0 ? Math.min(1, sent / total) : 1;
  const filled = Math.round(fraction * width);
  const bar = `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}]`;
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  const parts = [bar, percent, `${formatBytes(sent)} / ${formatBytes(total)}`];
  if (elapsedMs >= 200 && sent > 0) {
    const rate = sent / (elapsedMs / 1000);
    parts.push(`${formatBytes(rate)}/s`, `ETA ${formatClock((total - sent) / rate)}`);
  }
  return parts.join('  ');
}

export interface ProgressBar {
  update(progress: UploadProgress): void;
  stop(): void;
}

/** A progress bar on stderr (drawn by the spinner, so only when io.animate); nothing at all otherwise. */
export async function startProgressBar(io: IOStreams, label: string): Promise<ProgressBar> {
  const spinner = await startSpinner(io, label);
  return {
    update: (progress) => spinner.update(`${label} ${progressLine(progress)}`),
    stop: () => spinner.stop(),
  };
}
