/**
 * RESULTS.md's peer section: per prompt, a table of each figure for mcp-chat and each peer,
 * with the peer's ratio to mcp-chat beside it; then the peers skipped and why. Pure.
 */
import { figure } from './format.js';
import { ahead, FIGURE_LABELS, FIGURES, type ClientFigures, type Figure } from './peers/figures.js';
import type { PeerComparison, PeerKindRow } from './results.js';
import type { Summary } from './stats.js';

/** Bytes read better in kB; every other figure is shown in its own unit. */
function shown(name: Figure, summary: Summary): string {
  if (name !== 'requestBytes') return figure(summary, FIGURE_LABELS[name].unit);
  const kb = (value: number): number => value / 1000;
  return figure({ ...summary, median: kb(summary.median), p25: kb(summary.p25), p75: kb(summary.p75) }, 'kB');
}

export function ratioText(ratio: number): string {
  if (!Number.isFinite(ratio)) return '—';
  return `${ratio.toFixed(2)} ${ahead(ratio) ? '(ahead)' : '(**behind**)'}`;
}

function clientCell(client: ClientFigures, name: Figure): string {
  if (!client.figures) return `failed ${client.failures.length} of ${client.runs} runs`;
  return shown(name, client.figures[name]);
}

function kindTable(row: PeerKindRow): string[] {
  const [ours, ...peers] = row.clients;
  if (!ours) return [];
  const header = ['figure', ours.label, ...peers.flatMap((peer) => [peer.label, `${peer.client} / mcp-chat`])];
  const lines = FIGURES.map((name) => {
    const cells = [
      FIGURE_LABELS[name].label,
      clientCell(ours, name),
      ...peers.flatMap((peer) => [clientCell(peer, name), ratioText(row.ratios[peer.client]?.[name] ?? Number.NaN)]),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  const failures = row.clients.flatMap((client) =>
    [...new Set(client.failures)].map((reason) => `- ${client.label}: a run failed: ${reason}`),
  );
  return [
    `### ${row.kind}: “${row.prompt}”`,
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...lines,
    '',
    ...(failures.length > 0 ? [...failures, ''] : []),
  ];
}

/** The lowest ratio of each peer over every prompt and figure it has: how far ahead (or behind) mcp-chat is at worst. */
export function worstRatios(peers: PeerComparison): Record<string, number> {
  const worst: Record<string, number> = {};
  for (const row of peers.kinds)
    for (const [peer, byFigure] of Object.entries(row.ratios))
      for (const name of FIGURES)
        if (Number.isFinite(byFigure[name]))
          worst[peer] = Math.min(worst[peer] ?? Number.POSITIVE_INFINITY, byFigure[name]);
  return worst;
}

export function peerSection(peers: PeerComparison): string[] {
  const skipped = peers.skipped.map((item) => `- ${item.client}: skipped: ${item.reason}`);
  const worst = Object.entries(worstRatios(peers)).map(([peer, ratio]) => `${peer} ${ratio.toFixed(2)}`);
  return [
    `Peers installed on demand into \`${peers.installDir}\` (the benchmark's cache, not the project's dependencies). ` +
      `Target: mcp-chat ahead of every peer on every figure of every prompt (every ratio above 1): ` +
      `**${peers.targetMet ? 'met' : 'not met'}**${worst.length > 0 ? `; lowest ratio per peer: ${worst.join(', ')}` : ''}.`,
    '',
    ...(skipped.length > 0 ? [...skipped, ''] : []),
    ...peers.kinds.flatMap(kindTable),
  ];
}
