/**
 * `mcp-chat` / `mcp-chat chat`: the REPL. An untrusted `./mcp_config.json` is asked about first,
 * before anything starts. Then the chat renders at once; servers start behind it and report into
 * the status bar. On exit, every server process is stopped.
 */
import { render } from 'ink';
import { openChatSession } from '../session/open-chat-session.js';
import {
  createRuntime,
  type GlobalOptions,
  type Runtime,
  type TrustAnswer,
  type TrustQuestion,
} from '../session/runtime.js';
import { ExitCode, UsageError } from '../shared/errors.js';
import { App } from '../ui/App.js';
import { repliesIn } from '../ui/history.js';
import { loadMarkdownRenderer, readyToDraw } from '../ui/markdown.js';
import { TrustPrompt, type TrustPromptAnswer } from '../ui/components/TrustPrompt.js';
import { INK_MAX_FPS } from '../ui/stream-batcher.js';
import type { Output } from './output.js';
import { InputHistory } from '../state/input-history.js';
import { SessionKeeper } from '../state/session-keeper.js';
import { runtimeForSession } from '../session/session-resume.js';
import { SessionStore } from '../state/session-store.js';

/** The user quit at the trust question: nothing was started, so there is nothing to stop. */
class QuitBeforeStart extends Error {}

/** Asks in the terminal, with its own short-lived Ink render, unmounted before the chat is drawn. */
async function askInTerminal(question: TrustQuestion): Promise<TrustAnswer> {
  // Unanswered (the prompt was torn down) counts as quitting: nothing is trusted by default.
  const given: { answer: TrustPromptAnswer } = { answer: 'quit' };
  const prompt = render(<TrustPrompt question={question} onAnswer={(answer) => (given.answer = answer)} />, {
    exitOnCtrlC: false,
  });
  await prompt.waitUntilExit();
  if (given.answer === 'quit') throw new QuitBeforeStart();
  return given.answer;
}

export interface ChatOptions {
  /** `--resume [name]`: the session to carry on (`latest`: the one saved last). */
  resume?: string;
}

export async function chatCommand(options: GlobalOptions, output: Output, chat: ChatOptions = {}): Promise<number> {
  if (!process.stdin.isTTY) {
    throw new UsageError('the chat needs an interactive terminal', 'For scripts and pipes use: mcp-chat ask "…"');
  }
  let runtime: Runtime;
  try {
    runtime = await createRuntime(options, {
      askTrust: askInTerminal,
      // Printed before the chat is drawn: Ink owns the screen after that.
      notify: (line) => output.stderr(`notice: ${line}\n`),
    });
  } catch (error) {
    if (error instanceof QuitBeforeStart) return ExitCode.ok;
    throw error;
  }
  const store = SessionStore.open();
  // A session that cannot be read stops here, before anything starts: the error names its file (exit 1).
  const saved = chat.resume === undefined ? undefined : store.load(chat.resume);
  const { session, host } = openChatSession(
    runtimeForSession(runtime, saved, options.model !== undefined),
    new SessionKeeper(store),
  );
  if (saved) session.restoreConversation(saved);
  // Security: a tool renamed because its name read as another server's is said on screen.
  const started = host.start().then(() => {
    for (const line of host.nameWarnings()) session.notices.notify(line);
  });
  const inputHistory = InputHistory.open(process.env, runtime.log);
  // A resumed conversation is drawn with the markdown renderer; a fresh chat draws before loading it.
  if (saved) await readyToDraw(repliesIn(saved.screen));
  // Ctrl+C is a key here, not a signal: the App decides between cancelling a turn and quitting.
  const app = render(<App session={session} inputHistory={inputHistory} />, {
    exitOnCtrlC: false,
    maxFps: INK_MAX_FPS,
  });
  // A turn waits for it, and says so if it cannot be loaded.
  loadMarkdownRenderer().catch(() => undefined);
  const onTerminate = (): void => app.unmount();
  process.once('SIGTERM', onTerminate);
  process.once('SIGHUP', onTerminate);
  try {
    await app.waitUntilExit();
  } finally {
    process.off('SIGTERM', onTerminate);
    process.off('SIGHUP', onTerminate);
    await started;
    // The last turn's save may still be on its way to the disk.
    await Promise.all([host.close(), store.flush()]);
  }
  return ExitCode.ok;
}
