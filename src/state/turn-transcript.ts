/**
 * What `ask` would have shown of a turn, as the screen items a session keeps: the prompt, each
 * tool call with its result, and the answer or what went wrong. A session continued by `ask` thus
 * shows its turns when it is resumed in the chat, as the chat's own turns do.
 */
import type { TurnEvent } from '../vocabulary/types.js';
import type { SavedItem } from './session-file.js';
import { counted } from '../shared/plural.js';

export class TurnTranscript {
  readonly items: SavedItem[];
  private answeredTurn = false;

  constructor(prompt: string) {
    this.items = [{ type: 'user', text: prompt.trim() }];
  }

  /** True once the turn ended with an answer. */
  get answered(): boolean {
    return this.answeredTurn;
  }

  /** Takes the events that show on screen; the others (deltas, offers, questions) leave nothing behind. */
  note(event: TurnEvent): void {
    if (event.type === 'tool-result') {
      const { isError, forModel, durationMs } = event.result;
      this.items.push({ type: 'tool', call: event.call, result: { isError, forModel, durationMs } });
    } else if (event.type === 'final') {
      this.answeredTurn = true;
      this.items.push({ type: 'assistant', text: event.answer });
    } else if (event.type === 'error') {
      this.items.push({ type: 'error', text: event.message, ...(event.hint ? { hint: event.hint } : {}) });
    } else if (event.type === 'step-limit') {
      this.items.push({ type: 'error', text: `No final answer after ${counted(event.steps, 'step')}.` });
    } else if (event.type === 'cancelled') {
      this.items.push({ type: 'info', text: 'Cancelled.' });
    }
  }
}
