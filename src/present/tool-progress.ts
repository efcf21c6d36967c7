/**
 * A running call's progress for people: a bar when the server gives a total, the count, its message.
 * A task's status has no count (progress 0, no total): it is its message alone, `working · Researching…`.
 */
import type { ToolProgress } from '../vocabulary/types.js';
import { sanitizeForDisplay } from '../shared/terminal-text.js';

const BAR_WIDTH = 10;
/** A server's message is one line here; a longer one is cut. */
const MAX_MESSAGE = 60;

export function formatProgress({ progress, total, message }: ToolProgress): string {
  const parts: string[] = [];
  if (total !== undefined && total > 0) {
    const share = Math.min(1, Math.max(0, progress / total));
    const filled = Math.round(share * BAR_WIDTH);
    parts.push(`${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)} ${progress}/${total}`);
  } else if (progress !== 0 || !message) {
    parts.push(String(progress));
  }
  if (message) {
    parts.push(sanitizeForDisplay(message, MAX_MESSAGE));
  }
  return parts.join(' · ');
}
