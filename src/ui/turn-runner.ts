/**
 * One turn of the REPL: its events become reducer actions (streamed text batched into frames), and
 * once it is over the session is saved with what the screen showed. The turn's abort controller
 * lives in `turn` while it runs, so Esc can cancel it.
 */
import type { MutableRefObject } from 'react';
import type { TurnEvent } from '../vocabulary/types.js';
import type { ChatSession } from '../session/chat-session.js';
import { errorMessage } from '../shared/errors.js';
import type { ChatStore } from './chat-store.js';
import { loadMarkdownRenderer } from './markdown.js';
import { StreamBatcher } from './stream-batcher.js';
import { commitsStreamed } from './turn-events.js';

export async function runChatTurn(
  session: ChatSession,
  store: ChatStore,
  turn: MutableRefObject<AbortController | undefined>,
  text: string,
  given: Record<string, string> = {},
): Promise<void> {
  const controller = new AbortController();
  turn.current = controller;
  store.dispatch({ type: 'turn-started' });
  const dispatchEvent = (event: TurnEvent): void => store.dispatch({ type: 'turn-event', event, debug: session.debug });
  const batcher = new StreamBatcher((streamed) => dispatchEvent({ type: 'assistant-delta', text: streamed }));
  let answered = false;
  // The reply is drawn as markdown, whose renderer loads once the chat is drawn: a turn begun before
  // it is ready waits for it before it shows anything, while its request goes to the model.
  let renderer: Promise<void> | undefined = loadMarkdownRenderer();
  try {
    for await (const event of session.runTurn(text, controller.signal, given)) {
      if (renderer) {
        await renderer;
        renderer = undefined;
      }
      if (event.type === 'final') answered = true;
      if (event.type === 'assistant-delta') batcher.append(event.text);
      else if (event.type === 'error' && event.kind === 'missing-arguments') {
        // A person is here to answer: ask for what the prompt needs rather than explain its usage.
        store.dispatch({ type: 'ask-arguments', asking: { ...event.missing, line: text, answers: given } });
      } else {
        if (commitsStreamed(event)) batcher.flush();
        else if (event.type === 'final') batcher.dispose();
        dispatchEvent(event);
      }
    }
  } catch (error) {
    // The chatbot reports failures as events; this is a bug, but the REPL must stay usable, not die of an unhandled rejection.
    store.dispatch({ type: 'add', items: [{ type: 'error', text: errorMessage(error) }] });
  } finally {
    batcher.dispose();
    turn.current = undefined;
    store.dispatch({ type: 'turn-ended' });
    saveSession(session, store, answered);
  }
}

/**
 * Saves the session with what the screen showed since the last save. The file is written in the
 * background: the next line can be typed at once. A failure is said on screen, and the chat goes
 * on; the keeper has the items all the same, and the next save writes them.
 */
function saveSession(session: ChatSession, store: ChatStore, answered: boolean): void {
  const { unsaved } = store.getState();
  store.dispatch({ type: 'saved', count: unsaved.length });
  session.saveTurn(unsaved, answered).catch((error: unknown) => {
    store.dispatch({ type: 'add', items: [{ type: 'error', text: `Session not saved: ${errorMessage(error)}` }] });
  });
}
