/**
 * Every benchmark `npm run bench` runs, by the name `--only` takes, in the order they run; and
 * which of them are budgets, run again on the other Node lines.
 */
import { benchAskFirstRequest } from './ask-first-request.js';
import { benchDetector } from './detector.js';
import { benchFirstFrame } from './first-frame.js';
import type { BenchmarkResult } from './lib/results.js';
import type { Workspace } from './lib/workspace.js';
import { benchLongSession } from './long-session.js';
import { benchPeers } from './peers.js';
import { benchServeLoad } from './serve-load.js';
import { benchSessions } from './sessions.js';
import { benchTokenToScreen } from './token-to-screen.js';
import { benchToolSelection } from './tool-selection.js';

export const BENCHMARKS: Record<string, (workspace: Workspace) => Promise<BenchmarkResult>> = {
  peers: () => benchPeers(),
  'first-frame': () => benchFirstFrame(),
  'ask-first-request': () => benchAskFirstRequest(),
  'token-to-screen': () => benchTokenToScreen(),
  'long-session': () => benchLongSession(),
  sessions: benchSessions,
  'serve-load': benchServeLoad,
  detector: benchDetector,
  'tool-selection': benchToolSelection,
};

export const BUDGET_BENCHMARKS: string[] = [
  'first-frame',
  'ask-first-request',
  'token-to-screen',
  'long-session',
  'sessions',
];
