/**
 * The seam between `ask` and what it prints: the turn's start, its events and its end, as
 * every `--output-format` receives them (ask-output.ts, stream-json.ts).
 */
import type { DeniedCall } from './ask-denials.js';
import type { ServerRequestRecord } from '../vocabulary/server-requests.js';
import type { StatsSnapshot } from '../engine/session-stats.js';
import type { ToolCallRecord, ToolOffer, ToolSpec, TurnEvent } from '../vocabulary/types.js';
import type { ServerStatus } from '../session/chat-session.js';

/** What is known when the turn starts (stream-json's `init`). */
export interface AskStart {
  sessionId: string;
  model: string;
  prompt: string;
  servers: ServerStatus[];
  tools: ToolSpec[];
}

/** The `--json` object. */
export interface AskSummary {
  answer: string;
  model: string;
  toolCalls: ToolCallRecord[];
  steps: number;
  toolsOffered: ({ step: number } & ToolOffer)[];
  /** The calls that needed approval and were not run (no `--yes`). */
  denied: DeniedCall[];
  serverRequests: ServerRequestRecord[];
  stats: StatsSnapshot;
}

export interface AskEnd {
  exitCode: number;
  /** Why it failed: `ollama`, `turn`, `step-limit`, `cancelled`, `output-schema`. */
  error?: { type: string; message: string };
}

export interface AskPrinter {
  start(start: AskStart): void;
  event(event: TurnEvent): void;
  finish(summary: AskSummary, end: AskEnd): void;
  /** Ollama failed before the turn; the error itself is reported on stderr as usual. */
  failedToStart(summary: AskSummary, end: AskEnd): void;
}
