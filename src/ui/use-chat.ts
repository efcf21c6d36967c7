/**
 * The REPL's state and the only place it changes: submitted lines become commands or
 * turns; turn events become history items. Streamed text is batched so a fast model
 * re-renders a few dozen times a second, not once per token.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ToolCall, TurnEvent } from '../chat/types.js';
import { assertNever } from '../errors.js';
import type { ServerStatus } from '../mcp/host.js';
import type { ApprovalDecision, ChatSession } from './chat-session.js';
import { parseInput, runCommand } from './commands.js';
import type { Activity, HistoryItem, NewHistoryItem } from './history.js';
import { useOllamaStatus, type OllamaStatus } from './use-ollama-status.js';

/** How often streamed text is re-rendered: smooth to the eye, cheap for the CPU. */
const STREAM_FLUSH_MS = 40;

export interface ChatState {
  items: HistoryItem[];
  activity: Activity;
  servers: ServerStatus[];
  ollama: OllamaStatus;
  /** Changes when the screen is cleared, so `<Static>` starts afresh. */
  epoch: number;
  exiting: boolean;
  submit: (text: string) => void;
  cancel: () => boolean;
  answerApproval: (decision: ApprovalDecision) => void;
}

export function useChat(session: ChatSession, subscribeStatus: (listener: () => void) => () => void, clearScreen: () => void): ChatState {
  const [items, setItems] = useState<HistoryItem[]>(() => [{ id: 0, type: 'banner', model: session.model, configSource: session.runtime.config.source }]);
  const [activity, setActivity] = useState<Activity>({ type: 'idle' });
  const [servers, setServers] = useState<ServerStatus[]>(() => session.serverStatuses());
  const [epoch, setEpoch] = useState(0);
  const [exiting, setExiting] = useState(false);
  const nextId = useRef(1);
  const turn = useRef<AbortController | undefined>(undefined);
  const approval = useRef<((decision: ApprovalDecision) => void) | undefined>(undefined);
  const ollama = useOllamaStatus(session);

  const add = useCallback((...added: NewHistoryItem[]) => {
    setItems((current) => [...current, ...added.map((item) => ({ ...item, id: nextId.current++ }) as HistoryItem)]);
  }, []);

  useEffect(() => subscribeStatus(() => setServers(session.serverStatuses())), [session, subscribeStatus]);

  useEffect(() => {
    session.setApprover((call: ToolCall, signal?: AbortSignal) =>
      new Promise<ApprovalDecision>((resolve) => {
        setActivity({ type: 'approval', call });
        const settle = (decision: ApprovalDecision): void => {
          approval.current = undefined;
          setActivity({ type: 'tool', call, streamed: '' });
          resolve(decision);
        };
        approval.current = settle;
        signal?.addEventListener('abort', () => settle('deny'), { once: true });
      }),
    );
  }, [session]);

  const runTurn = useCallback(
    async (text: string) => {
      const controller = new AbortController();
      turn.current = controller;
      setActivity({ type: 'waiting' });
      const stream = new StreamBuffer((streamed) => setActivity({ type: 'streaming', text: streamed }));
      for await (const event of session.runTurn(text, controller.signal)) {
        applyEvent(event, { add, setActivity, stream, debug: session.debug, ollama });
      }
      stream.dispose();
      turn.current = undefined;
      setActivity({ type: 'idle' });
    },
    [session, add, ollama],
  );

  const submit = useCallback(
    (text: string) => {
      if (turn.current) return;
      const parsed = parseInput(text);
      if (parsed.type === 'message') {
        add({ type: 'user', text: parsed.text });
        void runTurn(parsed.text);
        return;
      }
      if (parsed.type === 'unknown-command') {
        const suggestion = parsed.suggestion ? ` Did you mean /${parsed.suggestion}?` : '';
        add({ type: 'error', text: `Unknown command ${parsed.text}.${suggestion}`, hint: 'Type help for the list of commands.' });
        return;
      }
      void runCommand(parsed, session).then((result) => {
        if (result.clear) {
          clearScreen();
          setItems([]);
          setEpoch((value) => value + 1);
        }
        if (result.exit) setExiting(true);
        add(...result.items);
      });
    },
    [session, add, runTurn, clearScreen],
  );

  const cancel = useCallback((): boolean => {
    if (!turn.current) return false;
    turn.current.abort();
    return true;
  }, []);

  const answerApproval = useCallback((decision: ApprovalDecision) => approval.current?.(decision), []);

  return { items, activity, servers, ollama: ollama.status, epoch, exiting, submit, cancel, answerApproval };
}

/** Batches streamed deltas into timed re-renders. */
class StreamBuffer {
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

interface EventSinks {
  add: (...items: NewHistoryItem[]) => void;
  setActivity: (activity: Activity) => void;
  stream: StreamBuffer;
  debug: boolean;
  ollama: { reportTurn: (event: TurnEvent) => void };
}

function applyEvent(event: TurnEvent, sinks: EventSinks): void {
  const { add, setActivity, stream, debug } = sinks;
  sinks.ollama.reportTurn(event);
  switch (event.type) {
    case 'assistant-delta':
      stream.append(event.text);
      return;
    case 'tool-call': {
      // Prose the model wrote before the call stays on screen, above the tool line.
      const prose = stream.take().trim();
      if (prose) add({ type: 'assistant', text: prose });
      setActivity({ type: 'tool', call: event.call, streamed: '' });
      return;
    }
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
      stream.take();
      add({ type: 'error', text: event.message, hint: event.hint });
      return;
    case 'step-limit':
      add({ type: 'error', text: `No final answer after ${event.steps} steps.`, hint: 'Ask again, or more specifically.' });
      return;
    case 'cancelled':
      stream.take();
      add({ type: 'info', text: 'Cancelled.' });
      return;
    case 'thinking-delta':
      return;
    default:
      assertNever(event);
  }
}
