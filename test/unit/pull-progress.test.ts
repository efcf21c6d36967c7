import { describe, expect, it } from 'vitest';
import type { PullProgress } from '../../src/vocabulary/model-pull.js';
import {
  formatBytes,
  formatDuration,
  formatPullDone,
  formatPullProgress,
  PullMeter,
  transferRate,
} from '../../src/present/pull-progress.js';

const GB = 1_000_000_000;
const MB = 1_000_000;

function progress(status: string, completed: number, total: number, transferred = completed): PullProgress {
  return { status, completed, total, transferred };
}

describe('formatBytes', () => {
  it('uses decimal units, one decimal under ten', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1_234)).toBe('1.2 kB');
    expect(formatBytes(35_400_000)).toBe('35 MB');
    expect(formatBytes(4_683_087_332)).toBe('4.7 GB');
    expect(formatBytes(1.2e13)).toBe('12 TB');
  });

  it('never shows 1000 of a unit', () => {
    expect(formatBytes(999_960)).toBe('1.0 MB');
  });
});

describe('formatDuration', () => {
  it('reads as seconds, minutes or hours', () => {
    expect(formatDuration(0.4)).toBe('<1s');
    expect(formatDuration(42.4)).toBe('42s');
    expect(formatDuration(185)).toBe('3m 05s');
    expect(formatDuration(3_720)).toBe('1h 02m');
  });
});

describe('transferRate', () => {
  it('is unknown until the samples span half a second', () => {
    expect(transferRate([])).toBeUndefined();
    expect(transferRate([{ atMs: 0, transferred: 0 }])).toBeUndefined();
    expect(
      transferRate([
        { atMs: 0, transferred: 0 },
        { atMs: 400, transferred: MB },
      ]),
    ).toBeUndefined();
  });

  it('measures over the last five seconds only', () => {
    const samples = [
      { atMs: 0, transferred: 0 },
      { atMs: 1_000, transferred: 100 * MB },
      { atMs: 4_000, transferred: 130 * MB },
      { atMs: 6_000, transferred: 150 * MB },
    ];
    // From 1 s to 6 s: 50 MB in 5 s; the burst before it no longer counts.
    expect(transferRate(samples)).toBe(10 * MB);
  });
});

describe('PullMeter', () => {
  it('lets a redraw through every 200 ms, and at once on a new step', () => {
    const meter = new PullMeter('qwen3');
    expect(meter.report(progress('pulling manifest', 0, 0), 0)).toBeDefined();
    expect(meter.report(progress('pulling aaa', 0, GB), 50)).toBeDefined();
    expect(meter.report(progress('pulling aaa', 10 * MB, GB), 100)).toBeUndefined();
    const view = meter.report(progress('pulling aaa', 30 * MB, GB), 1_000);
    expect(view).toEqual({ model: 'qwen3', progress: progress('pulling aaa', 30 * MB, GB), bytesPerSecond: 30 * MB });
    expect(meter.report(progress('verifying sha256 digest', GB, GB), 1_010)).toBeDefined();
    expect(meter.last?.status).toBe('verifying sha256 digest');
  });
});

describe('formatPullProgress', () => {
  it('before the first layer: the step, and that the size comes with the download', () => {
    expect(formatPullProgress({ model: 'qwen3', progress: progress('pulling manifest', 0, 0) })).toBe(
      'qwen3  pulling manifest (the size shows once the download starts)',
    );
  });

  it('while downloading: bar, share, bytes of the total, rate and time left', () => {
    const line = formatPullProgress(
      { model: 'qwen3', progress: progress('pulling 8934d96d3f08', 1.9 * GB, 4.7 * GB), bytesPerSecond: 35 * MB },
      100,
    );
    expect(line).toMatch(/^qwen3 {2}█{12}░{18} {2}40% {2}1\.9 GB \/ 4\.7 GB {2}35 MB\/s {2}1m 20s left$/);
  });

  it('fits the bar to the line, never under ten cells', () => {
    const view = { model: 'qwen3', progress: progress('pulling x', GB / 2, GB), bytesPerSecond: MB };
    expect(formatPullProgress(view, 70)).toHaveLength(70 - 1);
    expect(formatPullProgress(view, 20)).toContain(`${'█'.repeat(5)}${'░'.repeat(5)} `);
  });

  it('leaves out the rate while it is not known', () => {
    const line = formatPullProgress({ model: 'qwen3', progress: progress('pulling x', MB, GB) });
    expect(line).toMatch(/0% {2}1\.0 MB \/ 1\.0 GB$/);
  });

  it('after the download: what Ollama does now', () => {
    const line = formatPullProgress({ model: 'qwen3', progress: progress('verifying sha256 digest', GB, GB) });
    expect(line).toMatch(/100% {2}1\.0 GB \/ 1\.0 GB {2}verifying sha256 digest$/);
  });

  it("makes Ollama's words and the name inert", () => {
    const line = formatPullProgress({
      model: 'q\u001b[2Jwen',
      progress: progress('pulling\u0007 \u202emanifest', 0, 0),
    });
    expect(line).not.toMatch(/[\u0000-\u001f\u202e]/);
  });
});

describe('formatPullDone', () => {
  it('says the size and the time when the size is known', () => {
    expect(formatPullDone('qwen3', progress('success', 4.7 * GB, 4.7 * GB), 130_000)).toBe(
      'Pulled qwen3 (4.7 GB in 2m 10s).',
    );
    expect(formatPullDone('qwen3', undefined, 900)).toBe('Pulled qwen3 (1s).');
  });
});
