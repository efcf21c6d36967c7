/**
 * The REPL's state and the only place it changes: submitted lines become commands or
 * turns (see turn-events.ts for how a turn's events become history items).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ToolCall } from '../chat/types.js';
import type { ServerStatus } from '../mcp/host.js';
import type { ApprovalDecision, ChatSession } from './chat-session.js';
import { parseInput, runCommand } from './commands.js';
import type { Activity, HistoryItem, NewHistoryItem } from './history.js';
import { applyEvent, StreamBuffer } from './turn-events.js';
import { useOllamaStatus, type OllamaStatus } from './use-ollama-status.js';

/** Said after a failed start check: the REPL keeps working without the model. */
const DEGRADED_NOTE = 'Built-in commands work meanwhile; the next message tries Ollama again.';

export interface ChatState {
  items: HistoryItem[];
  activity: Activity;
  servers: ServerStatus[];
  ollama: OllamaStatus;
  /** Changes when the screen is cleared, so `<Static>` starts afresh. */
  epoch: number;
  exiting: boolean;
  submit: (text: string) => void;
  /** Whether a turn is running, read now: `activity` is only as fresh as the last render. */
  turnRunning: () => boolean;
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

  const add = useCallback((...added: NewHistoryItem[]) => {
    setItems((current) => [...current, ...added.map((item) => ({ ...item, id: nextId.current++ }) as HistoryItem)]);
  }, []);
  const reportStartFailure = useCallback(
    (message: string, hint: string | undefined) => add({ type: 'error', text: message, hint: hint ? `${hint.replace(/\.?$/, '.')} ${DEGRADED_NOTE}` : DEGRADED_NOTE }),
    [add],
  );
  const ollama = useOllamaStatus(session, reportStartFailure);

  useEffect(() => subscribeStatus(() => setServers(session.serverStatuses())), [session, subscribeStatus]);

  useEffect(() => {
    session.setApprover((call: ToolCall, signal?: AbortSignal) =>
      new Promise<ApprovalDecision>((resolve) => {
        setActivity({ type: 'approval', call });
        const settle = (decision: ApprovalDecision): void => {
          // A cancel after the answer must not bring the question's activity back.
          if (approval.current !== settle) return;
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
      try {
        for await (const event of session.runTurn(text, controller.signal)) {
          applyEvent(event, { add, setActivity, stream, debug: session.debug, ollama });
        }
      } catch (error) {
        // The orchestrator reports failures as events; this is a bug, but the REPL must stay usable, not die of an unhandled rejection.
        add({ type: 'error', text: error instanceof Error ? error.message : String(error) });
      } finally {
        stream.dispose();
        turn.current = undefined;
        setActivity({ type: 'idle' });
      }
    },
    [session, add, ollama],
  );

  const submit = useCallback(
    (text: string) => {
      if (turn.current) return;
      const parsed = parseInput(text);
      // What was typed stays in the scrollback, commands included, so their output has a heading.
      add({ type: 'user', text: text.trim() });
      if (parsed.type === 'message') {
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

  const turnRunning = useCallback(() => turn.current !== undefined, []);
  return { items, activity, servers, ollama: ollama.status, epoch, exiting, submit, turnRunning, cancel, answerApproval };
}
