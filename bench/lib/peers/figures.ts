/**
 * The figures of the peer rows, from the runs: one client's medians and spread per figure,
 * and each peer's ratio to mcp-chat (peer over mcp-chat: above 1, mcp-chat is ahead). A
 * client with a failed run has no figures for that prompt, only its failures. Pure.
 */
import { summarize, type Summary } from '../stats.js';
import type { ModelRequest } from '../model/server.js';
import type { Verdict } from './verdict.js';

export type Figure = 'wallMs' | 'cpuMs' | 'peakRssMb' | 'firstRequestMs' | 'requestBytes';
export const FIGURES: Figure[] = ['wallMs', 'cpuMs', 'peakRssMb', 'firstRequestMs', 'requestBytes'];

export const FIGURE_LABELS: Record<Figure, { label: string; unit: string }> = {
  wallMs: { label: 'wall time', unit: 'ms' },
  cpuMs: { label: 'CPU (user + sys, process tree)', unit: 'ms' },
  peakRssMb: { label: 'peak RSS (process tree)', unit: 'MB' },
  firstRequestMs: { label: 'start to first model request', unit: 'ms' },
  requestBytes: { label: 'bytes sent to the model', unit: 'B' },
};

export type Figures = Record<Figure, number>;

/** One run, measured and judged. */
export interface PeerRun {
  figures: Figures;
  verdict: Verdict;
}

export interface ClientFigures {
  client: string;
  label: string;
  runs: number;
  /** Why each failed run failed. */
  failures: string[];
  /** Absent when a run failed. */
  figures?: Record<Figure, Summary>;
}

const GENERATION = new Set(['ollama', 'chat-completions', 'responses']);

/** A run's time to its first generation request, and the bytes of every request body it sent. */
export function modelFigures(
  spawnedAt: number,
  requests: ModelRequest[],
): Pick<Figures, 'firstRequestMs' | 'requestBytes'> {
  const first = requests.find((request) => GENERATION.has(request.api));
  return {
    firstRequestMs: first ? first.at - spawnedAt : Number.NaN,
    requestBytes: requests.reduce((sum, request) => sum + request.bytes, 0),
  };
}

export function clientFigures(client: string, label: string, runs: PeerRun[]): ClientFigures {
  const failures = runs.flatMap((run) => (run.verdict.ok ? [] : [run.verdict.reason]));
  const base = { client, label, runs: runs.length, failures };
  if (failures.length > 0 || runs.length === 0) return base;
  const figures = Object.fromEntries(
    FIGURES.map((figure) => [figure, summarize(runs.map((run) => run.figures[figure]))]),
  ) as Record<Figure, Summary>;
  return { ...base, figures };
}

/** Peer over mcp-chat for each figure; NaN where either side has no figures. */
export function ratios(mcpChat: ClientFigures, peer: ClientFigures): Record<Figure, number> {
  return Object.fromEntries(
    FIGURES.map((figure) => {
      const ours = mcpChat.figures?.[figure].median;
      const theirs = peer.figures?.[figure].median;
      return [figure, ours === undefined || theirs === undefined ? Number.NaN : theirs / ours];
    }),
  ) as Record<Figure, number>;
}

/** mcp-chat is ahead on a figure when the peer's median is above its own. */
export const ahead = (ratio: number): boolean => Number.isFinite(ratio) && ratio > 1;
