/**
 * Every benchmark `npm run bench` runs, by the name `--only` takes, in the order they run; and
 * which of them are budgets, run again on the other Node lines.
 */
import { benchDetector } from './detector.js';
import type { BenchmarkResult } from './lib/results.js';
import type { Workspace } from './lib/workspace.js';
import { benchPeers } from './peers.js';
import { benchSessions } from './sessions.js';
import { benchToolSelection } from './tool-selection.js';

export const BENCHMARKS: Record<string, (workspace: Workspace) => Promise<BenchmarkResult>> = {
  peers: () => benchPeers(),
  sessions: benchSessions,
  detector: benchDetector,
  'tool-selection': benchToolSelection,
};

export const BUDGET_BENCHMARKS: string[] = ['sessions'];
