/**
 * What a turn cost, in words for the screen: the folded line of a model's reasoning, the
 * `/stats` summary and the status bar's context gauge. Pure; the figures come from
 * chat/session-stats.ts.
 */
import type { StatsSnapshot } from '../engine/session-stats.js';
import { counted } from '../shared/plural.js';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
/**
 * One formatter for every count (`toLocaleString` builds a new one at each call), made when first
 * used: building one loads ICU's number data, which the chat's start need not pay for.
 */
let countFormat: Intl.NumberFormat | undefined;
const count = (n: number): string => (countFormat ??= new Intl.NumberFormat('en-US')).format(n);

/** The one line a model's reasoning folds to once its answer starts. */
export function thoughtLine(durationMs: number): string {
  return `thought for ${seconds(durationMs)}`;
}

/** `2,310/8,192 ctx (28%)`: the last request's prompt and reply against the context window. */
export function contextGauge(context: { used: number; size: number }): string {
  const percent = context.size > 0 ? Math.round((context.used / context.size) * 100) : 0;
  return `${count(context.used)}/${count(context.size)} ctx (${percent}%)`;
}

function toolLine(stats: StatsSnapshot): string {
  const servers = Object.entries(stats.toolCallsByServer).map(([server, calls]) => `${server} ${calls}`);
  return `Tool calls: ${stats.toolCalls}${servers.length > 0 ? ` (${servers.join(', ')})` : ''}`;
}

export function formatStats(stats: StatsSnapshot): string {
  if (stats.requests === 0) return 'No model requests yet in this session.';
  const speed = stats.tokensPerSecond === null ? '' : ` · ${stats.tokensPerSecond} tokens/s`;
  const load = stats.loadMs > 0 ? ` (${seconds(stats.loadMs)} loading)` : '';
  return [
    `Session: ${counted(stats.turns, 'turn')}, ${counted(stats.requests, 'model request')}`,
    `Tokens: ${count(stats.inputTokens)} in, ${count(stats.outputTokens)} out${speed}`,
    `Time: ${seconds(stats.modelMs)} in the model${load}, ${seconds(stats.toolMs)} in tools`,
    toolLine(stats),
    ...(stats.context ? [`Context at the last request: ${contextGauge(stats.context)}`] : []),
  ].join('\n');
}
