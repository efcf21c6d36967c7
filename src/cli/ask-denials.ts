/**
 * `ask` without `--yes`: a call that needs approval is denied, since a script has no one to ask.
 * Each denial is said on stderr (whoever reads it, like a warning) and kept for `--json`: the
 * answer may claim what was never done, and a script sees that it was not. The exit code stays
 * the contract's: 0 when the turn ended with an answer.
 */
import type { CallId, ToolCall, TurnEvent } from '../vocabulary/types.js';
import { formatCall } from '../present/tool-line.js';
import type { Output } from './output.js';

export interface DeniedCall {
  id: CallId;
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
}

export function deniedLine(call: ToolCall): string {
  return (
    `${formatCall(call)} was not run: it needs approval. ` +
    `Run with --yes, or add "${call.tool}" to the "alwaysAllow" of server "${call.server}"`
  );
}

/** The answer to each approval request of a script; what was denied is said and recorded. */
export class ScriptApprovals {
  readonly denied: DeniedCall[] = [];

  constructor(
    private readonly yes: boolean,
    private readonly output: Output,
  ) {}

  decide(event: Extract<TurnEvent, { type: 'approval-request' }>): 'once' | 'deny' {
    if (this.yes) return 'once';
    const { call } = event;
    this.denied.push({ id: event.callId, server: call.server, tool: call.tool, arguments: call.arguments });
    this.output.warn(deniedLine(call));
    return 'deny';
  }
}
