/**
 * How one turn's events become history items and the pending activity. Streamed text
 * is batched so a fast model re-renders a few dozen times a second, not once per token.
 */
import type { TurnEvent } from '../chat/types.js';
import { assertNever } from '../errors.js';
import type { Activity, NewHistoryItem } from './history.js';

/** How often streamed text is re-rendered: smooth to the eye, cheap for the CPU. */
const STREAM_FLUSH_MS = 40;

/** Batches streamed deltas into timed re-renders. */
export class StreamBuffer {
  private text = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly render: (text: string) => void) {}

  append(delta: string): void {
    this.text += delta;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.render(this.text);
    }, STREAM_FLUSH_MS);
  }

  /** Returns what was streamed since the last take, and starts afresh. */
  take(): string {
    const text = this.text;
    this.dispose();
    this.text = '';
    return text;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

export interface EventSinks {
  add: (...items: NewHistoryItem[]) => void;
  setActivity: (activity: Activity) => void;
  stream: StreamBuffer;
  debug: boolean;
  ollama: { reportTurn: (event: TurnEvent) => void };
}

/** Commits what the model streamed so far, so text the user has seen stays on screen. */
function commitStreamed(sinks: EventSinks): void {
  const prose = sinks.stream.take().trim();
  if (prose) sinks.add({ type: 'assistant', text: prose });
}

export function applyEvent(event: TurnEvent, sinks: EventSinks): void {
  const { add, setActivity, stream, debug } = sinks;
  sinks.ollama.reportTurn(event);
  switch (event.type) {
    case 'assistant-delta':
      stream.append(event.text);
      return;
    case 'tool-call':
      // Prose the model wrote before the call stays on screen, above the tool line.
      commitStreamed(sinks);
      if (debug) add({ type: 'debug', text: `parsed call: ${event.call.server}.${event.call.tool} ${JSON.stringify(event.call.arguments)}` });
      setActivity({ type: 'tool', call: event.call, streamed: '' });
      return;
    case 'tool-result':
      add({ type: 'tool', call: event.call, result: event.result });
      setActivity({ type: 'waiting' });
      return;
    case 'model-reply':
      if (debug) add({ type: 'debug', text: `step ${event.step}, ${event.durationMs} ms, raw reply:\n${event.raw}` });
      return;
    case 'malformed-call':
      if (debug) add({ type: 'debug', text: `malformed tool call; hint sent to the model:\n${event.hint}` });
      return;
    case 'final':
      stream.take();
      if (event.answer.trim()) add({ type: 'assistant', text: event.answer });
      return;
    case 'error':
      commitStreamed(sinks);
      add({ type: 'error', text: event.message, hint: event.hint });
      return;
    case 'step-limit':
      add({ type: 'error', text: `No final answer after ${event.steps} steps.`, hint: 'Ask again, or more specifically.' });
      return;
    case 'cancelled':
      commitStreamed(sinks);
      add({ type: 'info', text: 'Cancelled.' });
      return;
    case 'thinking-delta':
      return;
    default:
      assertNever(event);
  }
}
