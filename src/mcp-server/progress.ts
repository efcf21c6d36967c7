/**
 * Progress told to the caller of a tool, as `notifications/progress` on the request's own token:
 * only when the caller sent one (it asked to hear), and never failing the call when it cannot be sent.
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ToolProgress } from '../vocabulary/types.js';

/** What a tool handler is given besides its arguments: the request's signal, its token, its channel back. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export function progressTo(extra: ToolExtra): (progress: ToolProgress) => void {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return () => undefined;
  return (progress) => {
    // A caller gone or slow to read is no reason to stop the work it asked for.
    extra
      .sendNotification({ method: 'notifications/progress', params: { progressToken, ...progress } })
      .catch(() => undefined);
  };
}
