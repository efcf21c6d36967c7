/**
 * A model download for people: one line with a bar, bytes done of the total, the rate and the
 * time left, and the line said when it is over. Ollama tells a layer's size only once that
 * layer starts, so before the first one the line says the size comes with the download, and
 * the total grows as later (small) layers start. Pure: the caller gives the clock's readings.
 */
import type { PullProgress } from '../vocabulary/model-pull.js';
import { sanitizeForDisplay } from '../shared/terminal-text.js';

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** `812 B`, `1.2 kB`, `35 MB`, `4.7 GB`: decimal units, as Ollama and file managers show sizes. */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  if (unit === 0) return `${Math.round(value)} B`;
  // Rounding may reach the next unit's 1000: `999.96 kB` reads as `1.0 MB`, not `1000 kB`.
  if (value >= 999.5 && unit < UNITS.length - 1) return `1.0 ${UNITS[unit + 1]}`;
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${UNITS[unit]}`;
}

/** `<1s`, `42s`, `3m 05s`, `1h 02m`. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 1) return '<1s';
  if (whole < 60) return `${whole}s`;
  const two = (n: number): string => String(n).padStart(2, '0');
  if (whole < 3600) return `${Math.floor(whole / 60)}m ${two(whole % 60)}s`;
  return `${Math.floor(whole / 3600)}h ${two(Math.floor((whole % 3600) / 60))}m`;
}

/** The rate is measured over this much of the recent past, so it follows the network without jumping. */
const RATE_WINDOW_MS = 5_000;
/** Less time than this measures nothing worth showing. */
const MIN_SPAN_MS = 500;

export interface RateSample {
  atMs: number;
  /** `PullProgress.transferred` then. */
  transferred: number;
}

/** Bytes per second over the last few seconds of `samples` (oldest first); undefined until there is enough. */
export function transferRate(samples: readonly RateSample[]): number | undefined {
  const last = samples[samples.length - 1];
  if (!last) return undefined;
  const first = samples.find((sample) => last.atMs - sample.atMs <= RATE_WINDOW_MS) ?? last;
  const span = last.atMs - first.atMs;
  if (span < MIN_SPAN_MS) return undefined;
  return (last.transferred - first.transferred) / (span / 1000);
}

/** The samples still needed for `transferRate`, with `next` added. */
function keepSamples(samples: readonly RateSample[], next: RateSample): RateSample[] {
  return [...samples.filter((sample) => next.atMs - sample.atMs <= RATE_WINDOW_MS), next];
}

/** The line is redrawn at most this often: Ollama reports many times a second. */
const REDRAW_MS = 200;

/**
 * Follows one pull's reports and says when the line is worth drawing again: every `REDRAW_MS`,
 * and at once when Ollama moves to a new step (verifying a large model can take a while).
 */
export class PullMeter {
  private samples: RateSample[] = [];
  private drawn = { atMs: -Infinity, status: '' };
  /** The latest report, for the closing line. */
  last: PullProgress | undefined;

  constructor(readonly model: string) {}

  /** Records a report made at `nowMs`; returns what to draw, or undefined when the line is fresh enough. */
  report(progress: PullProgress, nowMs: number): PullView | undefined {
    this.last = progress;
    this.samples = keepSamples(this.samples, { atMs: nowMs, transferred: progress.transferred });
    if (nowMs - this.drawn.atMs < REDRAW_MS && progress.status === this.drawn.status) return undefined;
    this.drawn = { atMs: nowMs, status: progress.status };
    return { model: this.model, progress, bytesPerSecond: transferRate(this.samples) };
  }
}

/** The bar takes what the figures leave of the line, within these bounds. */
const MIN_BAR = 10;
const MAX_BAR = 30;

function bar(share: number, width: number): string {
  const filled = Math.round(Math.min(1, Math.max(0, share)) * width);
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
}

export interface PullView {
  model: string;
  progress: PullProgress;
  /** From `transferRate`; undefined while it is not known. */
  bytesPerSecond?: number | undefined;
}

/** `qwen3  ████████░░░░  42%  1.9 GB / 4.7 GB  35 MB/s  1m 20s left`, the bar fitted to `columns`. */
export function formatPullProgress({ model, progress, bytesPerSecond }: PullView, columns = 80): string {
  const name = sanitizeForDisplay(model, 40);
  const status = sanitizeForDisplay(progress.status, 40);
  if (progress.total <= 0) return `${name}  ${status || 'starting'} (the size shows once the download starts)`;
  const share = progress.completed / progress.total;
  const figures = [
    `${Math.floor(share * 100)}%`,
    `${formatBytes(progress.completed)} / ${formatBytes(progress.total)}`,
  ];
  const downloading = progress.completed < progress.total;
  if (downloading && bytesPerSecond !== undefined && bytesPerSecond > 0) {
    const left = (progress.total - progress.completed) / bytesPerSecond;
    figures.push(`${formatBytes(bytesPerSecond)}/s`, `${formatDuration(left)} left`);
  } else if (!downloading && !status.startsWith('pulling ')) {
    // Past the download: what Ollama does now (verifying, writing the manifest).
    figures.push(status);
  }
  const used = [name, ...figures].join('  ').length + 2;
  const width = Math.min(MAX_BAR, Math.max(MIN_BAR, columns - used - 1));
  return [name, bar(share, width), ...figures].join('  ');
}

/** Said once the pull is over: `Pulled qwen3 (4.7 GB in 2m 10s).` */
export function formatPullDone(model: string, progress: PullProgress | undefined, elapsedMs: number): string {
  const size = progress && progress.total > 0 ? `${formatBytes(progress.total)} in ` : '';
  return `Pulled ${sanitizeForDisplay(model, 80)} (${size}${formatDuration(elapsedMs / 1000)}).`;
}
