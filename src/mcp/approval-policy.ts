/**
 * Which calls wait for the user's approval, and the guard that a call runs only as it was judged.
 * Policy: a call runs unasked only when the user said so (`alwaysAllow`, or `trust` and a tool that
 * says it is read-only and not destructive); every unknown answer is "ask".
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { displayName } from '../vocabulary/tool-naming.js';
import type { ToolCall } from '../vocabulary/types.js';
import type { ManagedServer } from './managed-server.js';

/** `tool`: the server's own tool the call names, when its list holds it right now. */
export function needsApproval(server: ManagedServer | undefined, tool: Tool | undefined): boolean {
  // Security: a server not configured, or whose tool list is unknown for now (starting, restarting
  // after a crash or for a config reload), cannot vouch for its tool: the call asks.
  if (!server || !tool) return true;
  if (server.config.alwaysAllow.includes(tool.name)) return false;
  // Security: annotations are the server's own claims (hints, says the MCP specification): they
  // count only for a server the user trusts, and a tool that claims to be destructive always asks.
  const hints = tool.annotations;
  return !(server.config.trust && hints?.readOnlyHint === true && hints.destructiveHint !== true);
}

interface Judgement {
  /** The very server judged: one a reload puts in its place is another object. */
  server: ManagedServer | undefined;
  asks: boolean;
}

/**
 * Security: approval is judged before the call runs, and the user may take a while to answer. A
 * call judged against one server's entry never runs on the server a reload put in its place, and a
 * call let through unasked does not run once the server's tool says it must ask.
 */
export class JudgedCalls {
  private readonly judged = new WeakMap<ToolCall, Judgement>();

  record(call: ToolCall, server: ManagedServer | undefined, asks: boolean): boolean {
    this.judged.set(call, { server, asks });
    return asks;
  }

  /** Why the call must not run on `server` now (`asksNow`: the rule's answer now), if it must not. */
  refusal(call: ToolCall, server: ManagedServer, asksNow: boolean): string | undefined {
    const judged = this.judged.get(call);
    // Not judged here: a call the user made directly (`mcp-chat call`), or under a rule of the session's own.
    if (!judged) return undefined;
    const name = displayName(call);
    if (judged.server !== server)
      return `${name} was not run: server "${server.name}" was reloaded with a new configuration after the call was checked for approval. Call it again.`;
    if (!judged.asks && asksNow)
      return `${name} was not run: its server's tool list changed after the call was checked, and the tool now needs approval. Call it again.`;
    return undefined;
  }
}
