/**
 * The REPL screen: committed history in `<Static>` (written once to scrollback), then
 * the pending reply, the status bar and the input line, which alone re-render.
 * Keys: Esc or Ctrl+C cancel a turn; Ctrl+C at an empty prompt or Ctrl+D quit; Ctrl+R searches earlier inputs.
 */
import { Box, Static, useApp, useInput, useStdout, type Key } from 'ink';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ChatSession } from '../session/chat-session.js';
import { approvalKey } from './approval-keys.js';
import { askedArgument, isBusy, staticKey, type ScreenState } from './chat-state.js';
import { completeLine } from './completion.js';
import { HistoryItemView } from './components/HistoryItemView.js';
import { PendingView } from './components/PendingView.js';
import { PullLine } from './components/PullLine.js';
import { QueuedLines } from './components/QueuedLines.js';
import { Prompt } from './components/Prompt.js';
import { StatusBar } from './components/StatusBar.js';
import { statusOf } from './status-line.js';
import { completionsFor } from './command-line.js';
import { keysInChunk } from './key-chunks.js';
import { questionKey, useQuestionGuard, type QuestionGuard } from './question-guard.js';
import { editLine, emptyLine, searchPrompt, type LineState } from './line-editor.js';
import { useChat, type ChatController } from './use-chat.js';

/** The lines typed in earlier chats (`InputHistory`): ↑ and Ctrl+R start with them; each line sent is added. */
export interface RecallStore {
  load(): string[];
  add(line: string): boolean;
}

export interface AppProps {
  session: ChatSession;
  inputHistory?: RecallStore;
}

const CLEAR_SCREEN = '\u001b[2J\u001b[3J\u001b[H';

interface KeyContext {
  chat: ChatController;
  /** The line now: a server's suggestions arrive after the key that asked for them. */
  currentLine: () => LineState;
  setLine: (next: LineState) => void;
  exit: () => void;
  /** Keeps a line the user sent for later runs (not an answer to a server's question). */
  remember?: ((line: string) => void) | undefined;
  guard: QuestionGuard;
}

/**
 * Tab on a prompt argument's value asks its server; the suggestions complete the line only if it
 * has not changed meanwhile. False when the line is not one, for the usual completion.
 */
function completeArgument({ chat, currentLine, setLine }: KeyContext): boolean {
  const line = currentLine();
  const asking = chat.current().asking !== undefined;
  const suggestions = chat.argumentCompletions(line);
  if (!suggestions) return asking;
  void suggestions.then((candidates) => {
    if (currentLine() === line) setLine(completeLine(line, () => candidates, asking));
  });
  return true;
}

/** One key press: an approval answer, a cancel or quit, or an edit of the input line. */
function handleKey(input: string, key: Key, context: KeyContext): void {
  const { chat, setLine, exit } = context;
  const line = context.currentLine();
  const state = chat.current();
  if (state.activity.type === 'approval' && approvalKey(input, key, state.activity, chat.approval)) return;
  const question = state.questions[0];
  // A key before the question is ready is the user's typing, and starts its wait again.
  const ready = question !== undefined && context.guard.isReady(question);
  if (question && !ready) context.guard.typedAhead();
  // Ctrl+R's search takes every key, Esc and Ctrl+C included (they leave it), until it ends.
  if (line.search) {
    setLine(editLine(line, input, key).state);
    return;
  }
  if ((key.ctrl && input === 'c') || key.escape) {
    if (chat.cancel() || key.escape) return;
    if (line.text === '') exit();
    else setLine({ ...line, text: '', cursor: 0 });
    return;
  }
  if (key.ctrl && input === 'd') {
    if (line.text === '' && !isBusy(state)) exit();
    return;
  }
  if (question) {
    questionKey(input, key, { line, ready }, { setLine, answer: chat.submit });
    return;
  }
  // While the approval question is open, Enter is the question's (a line typed ahead stays on the
  // input line); at any other time in a turn, a line sent waits for the turn to end.
  if (key.return && state.activity.type === 'approval') return;
  if (key.tab && completeArgument(context)) return;
  const result = editLine(line, input, key, (word) => completionsFor(word, chat.offers()));
  setLine(result.state);
  if (result.submitted) {
    context.remember?.(result.submitted);
    chat.submit(result.submitted);
  }
}

/** What leads the input line: a server's question, else a prompt's argument being asked for. */
function promptLabel(
  state: ScreenState,
  line: LineState,
  guard: QuestionGuard,
): { label?: string; hint?: string; masked?: boolean } {
  if (line.search) return searchPrompt(line.search);
  const question = state.questions[0];
  if (question) return guard.prompt(question, line.text);
  const argument = state.asking && askedArgument(state.asking);
  return argument ? { label: argument.name } : {};
}

/**
 * Ink writes `<Static>`'s new items to the scrollback as it commits the frame that holds them,
 * before layout effects run: by then they are drawn for good, and the state lets them go.
 */
function useLetGoOfPrinted(state: ScreenState, printed: (lastId: number) => void): void {
  const lastDrawn = state.items.at(-1)?.id;
  useLayoutEffect(() => {
    if (lastDrawn !== undefined) printed(lastDrawn);
  }, [lastDrawn, printed]);
}

/**
 * Leaving draws one last frame without the status bar and the input line, then exits: Ink keeps
 * the last frame on the terminal, and a prompt left there would look as if it still took input.
 */
function useLeaving(exiting: boolean, exit: () => void): { leaving: boolean; leave: () => void } {
  const [leaving, setLeaving] = useState(false);
  const leave = useCallback(() => setLeaving(true), []);
  useEffect(() => {
    if (exiting) setLeaving(true);
  }, [exiting]);
  useEffect(() => {
    if (leaving) exit();
  }, [leaving, exit]);
  return { leaving, leave };
}

export function App({ session, inputHistory }: AppProps): React.JSX.Element {
  const { exit } = useApp();
  const { stdout, write } = useStdout();
  // Through Ink's write, so Ink redraws the status bar and input line below the cleared screen.
  const chat = useChat(session, () => write(CLEAR_SCREEN));
  const { state } = chat;
  const [line, setLineState] = useState<LineState>(() => ({ ...emptyLine, recall: inputHistory?.load() ?? [] }));
  // Keys read the latest line through a ref: Ink re-subscribes a new handler only after the
  // frame is drawn, and a key that arrives in between must not see a stale line.
  const lineRef = useRef(line);
  const setLine = (next: LineState): void => {
    lineRef.current = next;
    setLineState(next);
  };

  const { leaving, leave } = useLeaving(state.exiting, exit);

  const guard = useQuestionGuard(state.questions[0], { current: () => lineRef.current, set: setLine });
  const remember = inputHistory && ((text: string): void => void inputHistory.add(text));
  // One handler for the program's life, which calls this render's: Ink subscribes a handler anew
  // whenever it changes, which would be at every frame of a streaming reply.
  const keyHandler = useRef<(input: string, key: Key) => void>(() => undefined);
  keyHandler.current = (input, key) =>
    handleKey(input, key, { chat, currentLine: () => lineRef.current, setLine, exit: leave, remember, guard });
  useInput(
    useCallback((input: string, key: Key) => {
      for (const press of keysInChunk(input, key)) keyHandler.current(press.input, press.key);
    }, []),
  );

  useLetGoOfPrinted(state, chat.printed);
  const width = stdout.columns || 80;
  return (
    <Box flexDirection="column">
      <Static key={staticKey(state)} items={state.items}>
        {(item) => (
          <Box key={item.id} width={width}>
            <HistoryItemView item={item} width={width} />
          </Box>
        )}
      </Static>
      {leaving ? null : (
        <>
          <PendingView
            activity={state.activity}
            streamed={chat.streamed}
            continues={state.committed !== ''}
            width={width}
          />
          <PullLine pulling={state.pulling} width={width} />
          <QueuedLines lines={state.queued} width={width} />
          <StatusBar model={session.model} {...statusOf(state)} width={width} />
          <Prompt line={line} busy={isBusy(state)} {...promptLabel(state, line, guard)} />
        </>
      )}
    </Box>
  );
}
