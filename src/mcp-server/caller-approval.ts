/**
 * A call that needs approval is asked of the calling client, by elicitation, when it said it can
 * answer one; otherwise it is denied, never run silently. Declining, cancelling or a request that
 * fails all deny.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ApprovalDecision, ToolCall } from '../vocabulary/types.js';
import { displayName } from '../vocabulary/tool-naming.js';

export type CallerApproval = (call: ToolCall) => Promise<ApprovalDecision>;

export function callerApproval(server: Server, signal: AbortSignal): CallerApproval {
  return async (call) => {
    if (!server.getClientCapabilities()?.elicitation) return 'deny';
    try {
      const reply = await server.elicitInput(
        {
          mode: 'form',
          message: `Allow ${displayName(call)} to run with ${JSON.stringify(call.arguments)}?`,
          requestedSchema: { type: 'object', properties: {} },
        },
        { signal },
      );
      return reply.action === 'accept' ? 'once' : 'deny';
    } catch {
      // A caller that went away, or refused the request, has not said yes.
      return 'deny';
    }
  };
}
