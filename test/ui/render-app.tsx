/**
 * Renders the real REPL (App + ChatSession) in ink-testing-library's virtual terminal with
 * an in-process model and tool host, and gives tests keys to press and frames to wait for.
 */
import { stripVTControlCharacters } from 'node:util';
import { render } from 'ink-testing-library';
import { useEffect } from 'react';
import { expect, vi } from 'vitest';
import type {
  LlmCapabilities,
  LlmChunk,
  LlmRequest,
  ToolCall,
  ToolResult,
  ToolSpec,
} from '../../src/vocabulary/types.js';
import type { Runtime } from '../../src/session/runtime.js';
import type { ServerStatus } from '../../src/mcp/host.js';
import { App, type RecallStore } from '../../src/ui/App.js';
import { ChatSession, type SessionHost, type SessionLlm, type StatusFeed } from '../../src/session/chat-session.js';
import { AlwaysUpLlm } from '../fakes/scripted-llm.js';
import { testRuntime } from '../helpers/test-session.js';
import { renderAtWidth } from './terminal-width.js';

export { testRuntime };
import { FAKE_TOOLS, FakeToolHost } from '../fakes/fake-tool-host.js';
import { ScriptedLlm, type ScriptedReply } from '../fakes/scripted-llm.js';

/** Only a hang reaches it, on a busy shared 2-core machine too; a passing wait returns as soon as the frame matches. */
const WAIT = { timeout: 30_000, interval: 10 };

export const KEY = {
  enter: '\r',
  ctrlC: '\u0003',
  ctrlD: '\u0004',
  esc: '\u001b',
  up: '\u001b[A',
  down: '\u001b[B',
  left: '\u001b[D',
  backspace: '\u007f',
  tab: '\t',
} as const;

/** A tool call as the model writes it in text mode. */
export const useTool = (server: string, tool: string, args: Record<string, unknown>): string =>
  JSON.stringify({ action: 'use_tool', server, tool, arguments: args });

/** The scripted model behind the session's model seam, paced like a socket; every model name it is given exists. */
export class TestLlm extends AlwaysUpLlm {
  model = 'scripted-model';
  readonly scripted: ScriptedLlm;

  constructor(replies: ScriptedReply[]) {
    super();
    this.scripted = new ScriptedLlm(replies);
  }

  /** Each chunk arrives on its own turn of the event loop, as from a socket, so timers run mid-stream. */
  async *chat(request: LlmRequest): AsyncIterable<LlmChunk> {
    for await (const chunk of this.scripted.chat(request)) {
      await new Promise((resolve) => setImmediate(resolve));
      yield chunk;
    }
  }

  capabilities(): Promise<LlmCapabilities> {
    return this.scripted.capabilities();
  }
}

/** A second tool that changes things, to show that "always" covers one tool only. */
const DELETE_FILE: ToolSpec = {
  server: 'file',
  name: 'delete_file',
  description: 'Delete a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  annotations: { destructiveHint: true },
};

/** FakeToolHost plus `file.delete_file`, with the server states the status bar shows: all ready, plus any given. */
export class TestToolHost extends FakeToolHost {
  constructor(private readonly extraStatuses: ServerStatus[] = []) {
    super();
  }

  override listTools(): ToolSpec[] {
    return [...FAKE_TOOLS, DELETE_FILE];
  }

  override requiresApproval(call: ToolCall): boolean {
    return call.tool === DELETE_FILE.name || super.requiresApproval(call);
  }

  override async callTool(call: ToolCall, signal?: AbortSignal): Promise<ToolResult> {
    if (call.server !== DELETE_FILE.server || call.tool !== DELETE_FILE.name) return super.callTool(call, signal);
    this.calls.push(call);
    const path = String(call.arguments.path);
    const deleted = this.files.delete(path);
    const text = deleted ? `deleted ${path}` : `Error: no such file ${path}`;
    return { isError: !deleted, forModel: text, durationMs: 1 };
  }

  override statuses(): ServerStatus[] {
    return [...super.statuses(), ...this.extraStatuses];
  }
}

/** Records that Ink unmounted the tree, which is what `exit()` does. */
function ExitProbe({ onUnmount, children }: { onUnmount: () => void; children: React.ReactNode }): React.ReactNode {
  useEffect(() => onUnmount, [onUnmount]);
  return children;
}

export interface RenderAppOptions {
  llm?: SessionLlm;
  host?: SessionHost;
  runtime?: Runtime;
  /** Where a real host reports status changes (its `onStatus` is the feed's `notify`). */
  status?: StatusFeed;
  /** A session built elsewhere (as the program builds it: test/ui/live-repl.tsx); the options above are then unused. */
  session?: ChatSession;
  inputHistory?: RecallStore;
  /** The terminal's width; ink-testing-library's 100 columns when not given. */
  columns?: number;
}

export function renderApp(options: RenderAppOptions = {}) {
  const llm = options.llm ?? new TestLlm([]);
  const host = options.host ?? new TestToolHost();
  const session =
    options.session ?? new ChatSession(options.runtime ?? testRuntime(), host, llm, { status: options.status });
  let exited = false;
  const tree = (
    <ExitProbe onUnmount={() => (exited = true)}>
      <App session={session} inputHistory={options.inputHistory} />
    </ExitProbe>
  );
  const ui = options.columns === undefined ? render(tree) : renderAtWidth(tree, options.columns);

  /** What the user sees: the last frame, colours removed. */
  const screen = (): string => stripVTControlCharacters(ui.lastFrame() ?? '');
  const waitForScreen = (pattern: RegExp | string): Promise<void> =>
    vi.waitFor(() => expect(screen()).toMatch(pattern), WAIT);
  const waitUntil = (check: () => void): Promise<void> => vi.waitFor(check, WAIT);
  /**
   * Resolves once the turn has answered `answer`: shown, and the conversation's last message. The
   * screen alone is not enough: a streamed reply shows its text while the turn still runs, and what
   * a test checks next (the request the model got, a line sent now) may belong to the turn after.
   */
  const waitForAnswer = (answer: string): Promise<void> =>
    waitUntil(() => {
      expect(screen()).toContain(answer);
      expect(session.conversationMessages().at(-1)).toMatchObject({ role: 'assistant', content: answer });
    });

  return {
    llm,
    host,
    session,
    ui,
    screen,
    waitForScreen,
    waitUntil,
    waitForAnswer,
    exited: () => exited,
    /** The text on the input line (the last line that starts with the prompt mark), without the mark. */
    inputLine: (): string =>
      (
        screen()
          .split('\n')
          .filter((line) => line.startsWith('›'))
          .at(-1) ?? ''
      )
        .slice(1)
        .trim(),
    /** Resolves once Ink listens to stdin, so no key is lost before the first effect runs. */
    ready: (): Promise<void> => waitUntil(() => expect(ui.stdin.listenerCount('readable')).toBeGreaterThan(0)),
    press: (...keys: string[]): void => keys.forEach((key) => ui.stdin.write(key)),
    /** Types a line and sends it with Enter, as two writes (text, then the key). */
    send: (text: string): void => {
      ui.stdin.write(text);
      ui.stdin.write(KEY.enter);
    },
  };
}

export type RenderedApp = ReturnType<typeof renderApp>;

/** Renders the App and resolves once it takes keys. */
export async function startApp(options: RenderAppOptions = {}): Promise<RenderedApp> {
  const app = renderApp(options);
  await app.ready();
  return app;
}
