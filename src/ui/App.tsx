/**
 * The REPL screen: committed history in `<Static>` (written once to scrollback), then
 * the pending reply, the status bar and the input line, which alone re-render.
 * Keys: Esc or Ctrl+C cancel a turn; Ctrl+C at an empty prompt or Ctrl+D quit.
 */
import { Box, Static, useApp, useInput, useStdout } from 'ink';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ChatSession } from './chat-session.js';
import { HistoryItemView } from './components/HistoryItemView.js';
import { PendingView } from './components/PendingView.js';
import { Prompt } from './components/Prompt.js';
import { StatusBar } from './components/StatusBar.js';
import { editLine, emptyLine, type LineState } from './line-editor.js';
import { useChat } from './use-chat.js';

export interface AppProps {
  session: ChatSession;
  subscribeStatus: (listener: () => void) => () => void;
}

const CLEAR_SCREEN = '\u001b[2J\u001b[3J\u001b[H';
const APPROVAL_KEYS = { y: 'once', a: 'always', n: 'deny' } as const;

export function App({ session, subscribeStatus }: AppProps): React.JSX.Element {
  const { exit } = useApp();
  const { stdout, write } = useStdout();
  // Through Ink's write, so Ink redraws the status bar and input line below the cleared screen.
  const chat = useChat(session, subscribeStatus, () => write(CLEAR_SCREEN));
  const [line, setLine] = useState<LineState>(emptyLine);
  // Key handlers read the latest line and chat state through refs: Ink re-subscribes a new
  // handler only after the frame is drawn, and a key that arrives in between must not see stale state.
  const lineRef = useRef(line);
  const chatRef = useRef(chat);
  useLayoutEffect(() => {
    chatRef.current = chat;
  });
  const busy = chat.activity.type !== 'idle';

  useEffect(() => {
    if (chat.exiting) exit();
  }, [chat.exiting, exit]);

  useInput((input, key) => {
    const current = lineRef.current;
    const state = chatRef.current;
    if (state.activity.type === 'approval') {
      const decision = key.escape ? 'deny' : APPROVAL_KEYS[input.toLowerCase() as keyof typeof APPROVAL_KEYS];
      if (decision) state.answerApproval(decision);
      else if (key.ctrl && input === 'c') state.cancel();
      return;
    }
    if ((key.ctrl && input === 'c') || key.escape) {
      if (state.cancel() || key.escape) return;
      if (current.text === '') exit();
      else update({ ...current, text: '', cursor: 0 });
      return;
    }
    const idle = !state.turnRunning();
    if (key.ctrl && input === 'd') {
      if (current.text === '' && idle) exit();
      return;
    }
    // While a turn runs the line can be edited, but Enter waits for the turn to end.
    if (key.return && !idle) return;
    const result = editLine(current, input, key);
    update(result.state);
    if (result.submitted) state.submit(result.submitted);
  });

  function update(next: LineState): void {
    lineRef.current = next;
    setLine(next);
  }

  const width = stdout.columns || 80;
  return (
    <Box flexDirection="column">
      <Static key={chat.epoch} items={chat.items}>
        {(item) => (
          <Box key={item.id} width={width}>
            <HistoryItemView item={item} width={width} />
          </Box>
        )}
      </Static>
      <PendingView activity={chat.activity} width={width} />
      <StatusBar model={session.model} ollama={chat.ollama} servers={chat.servers} />
      <Prompt line={line} busy={busy} />
    </Box>
  );
}
