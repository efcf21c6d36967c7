/**
 * Which calls wait for the user, and how the turn waits. The rule comes from the session
 * (the host's policy); an "always" answer stops the asking for that tool for the rest of
 * the chatbot's life. The question itself is a turn event, answered by its id (question-book.ts).
 */
import { displayName } from '../vocabulary/tool-naming.js';
import type { ApprovalDecision, ToolCall } from '../vocabulary/types.js';

/** True when the user must approve the call before it runs. */
export type ApprovalRule = (call: ToolCall) => boolean;

export class Approvals {
  private readonly alwaysAllowed = new Set<string>();

  constructor(private readonly rule: ApprovalRule) {}

  needed(call: ToolCall): boolean {
    return this.rule(call) && !this.alwaysAllowed.has(displayName(call));
  }

  record(call: ToolCall, decision: ApprovalDecision): void {
    if (decision === 'always') this.alwaysAllowed.add(displayName(call));
  }
}
