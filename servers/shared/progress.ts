/**
 * Progress notifications for one tool call, through the SDK's own request context: sent only
 * when the client asked for them (a `progressToken` in the call), numbered upwards, in order.
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ProgressToken, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** The second argument of a tool handler. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export class ProgressReporter {
  private progress = 0;
  private sending: Promise<void> = Promise.resolve();

  private constructor(
    private readonly token: ProgressToken,
    private readonly extra: ToolExtra,
  ) {}

  /** A reporter for this call, or undefined when the client sent no progress token (then nothing is sent). */
  static for(extra: ToolExtra): ProgressReporter | undefined {
    const token = extra._meta?.progressToken;
    return token === undefined ? undefined : new ProgressReporter(token, extra);
  }

  report(message: string): void {
    const notification: ServerNotification = {
      method: 'notifications/progress',
      params: { progressToken: this.token, progress: ++this.progress, message },
    };
    // Chained, so they leave in the order told; a report that cannot be sent (the client went
    // away) is dropped rather than failing the call it describes.
    this.sending = this.sending.then(() => this.extra.sendNotification(notification)).catch(() => undefined);
  }

  /** Settles once every report is sent: await it before answering, so that none arrives after the result. */
  flushed(): Promise<void> {
    return this.sending;
  }
}
