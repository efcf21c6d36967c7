/**
 * RESULTS.md as bench/lib/report.ts writes it: peer tables with each ratio marked ahead or behind,
 * the target said met only when every ratio is above 1 and no peer was skipped, budgets with pass
 * or miss and the machine they ran on, and the budgets again per Node line.
 */
import { describe, expect, it } from 'vitest';
import type { ClientFigures } from '../../bench/lib/peers/figures.js';
import { renderMarkdown } from '../../bench/lib/report.js';
import { ratioText } from '../../bench/lib/report-peers.js';
import { benchmarkResult, budget, type PeerComparison, type Results } from '../../bench/lib/results.js';
import { summarize } from '../../bench/lib/stats.js';

const figures = (scale: number): ClientFigures['figures'] => ({
  wallMs: summarize([500 * scale]),
  cpuMs: summarize([300 * scale]),
  peakRssMb: summarize([150 * scale]),
  firstRequestMs: summarize([400 * scale]),
  requestBytes: summarize([4000 * scale]),
});

function peers(codexScale: number, skipped: PeerComparison['skipped'] = []): PeerComparison {
  const ratio = {
    wallMs: codexScale,
    cpuMs: codexScale,
    peakRssMb: codexScale,
    firstRequestMs: codexScale,
    requestBytes: codexScale,
  };
  const ahead = codexScale > 1 && skipped.length === 0;
  return {
    installDir: '/cache/peers',
    skipped,
    kinds: [
      {
        kind: 'one-call',
        prompt: 'Use the calculator.',
        clients: [
          { client: 'mcp-chat', label: 'mcp-chat ask (0.1.0)', runs: 10, failures: [], figures: figures(1) },
          {
            client: 'codex',
            label: 'codex exec --oss (0.171.0)',
            runs: 10,
            failures: [],
            figures: figures(codexScale),
          },
        ],
        ratios: { codex: ratio },
      },
    ],
    targetMet: ahead,
  };
}

function results(comparison: PeerComparison, rssMb = 140): Results {
  const began = performance.now();
  const info = { id: 'x', title: 'T', howMeasured: 'H.', warmup: 'w', runs: 'r' };
  const memory = budget({
    name: 'RSS after 300 turns',
    label: 'RSS',
    value: rssMb,
    op: '<=',
    limit: 250,
    unit: 'MB',
    why: 'felt',
  });
  const benchmarks = [
    benchmarkResult({ ...info, id: 'peers', title: 'Peers' }, [], began, { peers: comparison }),
    benchmarkResult({ ...info, id: 'long-session', title: 'Memory' }, [], began, { budgets: [memory] }),
  ];
  const machine = {
    node: '20.20.2',
    platform: 'linux',
    arch: 'x64',
    cpuModel: 'Test CPU',
    cpus: 2,
    totalMemoryMb: 1,
    loadAverageAtStart: [0, 0, 0],
  };
  return {
    date: '2026-12-01T00:00:00.000Z',
    machine,
    wallTimeMs: 1000,
    pass: benchmarks.every((b) => b.pass),
    benchmarks,
  };
}

describe('RESULTS.md', () => {
  it('marks each ratio ahead or behind, and has no ratio where there is nothing to divide', () => {
    expect(ratioText(2.5)).toBe('2.50 (ahead)');
    expect(ratioText(0.8)).toBe('0.80 (**behind**)');
    expect(ratioText(Number.NaN)).toBe('—');
  });

  it('says the peer target is met and the budget passes when they do, naming the machine', () => {
    const text = renderMarkdown(results(peers(2)));
    expect(text).toContain('**met**; lowest ratio per peer: codex 2.00');
    expect(text).toContain('| wall time | 500 ms | 1000 ms | 2.00 (ahead) |');
    expect(text).toContain('| bytes sent to the model | 4 kB | 8 kB | 2.00 (ahead) |');
    expect(text).toContain('Measured on 2 × Test CPU, Node 20.20.2.');
    expect(text).toContain('| RSS after 300 turns | RSS 140 MB | RSS <= 250 MB | **pass** | felt |');
    expect(text).toContain('Overall: every target met.');
  });

  it('says the target is not met when a peer is ahead on a figure, or was skipped, and names why', () => {
    expect(renderMarkdown(results(peers(0.9)))).toContain('**not met**');
    const skipped = renderMarkdown(
      results(peers(2, [{ client: 'opencode', reason: 'could not install opencode-ai' }])),
    );
    expect(skipped).toContain('**not met**');
    expect(skipped).toContain('- opencode: skipped: could not install opencode-ai');
    expect(renderMarkdown(results(peers(2), 300))).toContain('| **miss** |');
  });

  it('adds the budgets of every other Node line beside the machine’s, and the lines that did not run', () => {
    const machineRun = results(peers(2));
    const other = results(peers(2), 160);
    other.machine.node = '24.11.0';
    const text = renderMarkdown({
      ...machineRun,
      lines: [
        { line: '24', results: other },
        { line: '26', error: 'no binary' },
      ],
    });
    expect(text).toContain('| budget | Node 20.20.2 (this machine) | Node 24.11.0 |');
    expect(text).toContain('| RSS after 300 turns (RSS, limit <= 250 MB) | 140 MB · pass | 160 MB · pass |');
    expect(text).toContain("| load average (1 min) when the line's run began | 0.00 | 0.00 |");
    expect(text).toContain('- Node 26: not run: no binary');
  });
});
