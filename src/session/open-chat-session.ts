/**
 * The REPL's session and its host, wired together: the feeds the Ink UI listens to, the gate that
 * asks the user about servers' requests, and the model client. Apart from chat-session.ts so that
 * `ask`, which builds its host in `withHost`, loads the host only where it starts servers.
 */
import { McpHost } from '../mcp/host.js';
import { createOllamaClient } from '../ollama/client.js';
import { ChatSession, NoticeFeed, OffersFeed, ServerRequestFeed, StatusFeed } from './chat-session.js';
import { openUrl } from './open-url.js';
import type { Runtime } from './runtime.js';
import { ServerRequestGate } from './server-request-gate.js';
import { QuestionBook } from '../engine/question-book.js';
import type { SessionKeeper } from '../state/session-keeper.js';
import { ToolPinStore } from '../state/tool-pin-store.js';
import { ToolPinGate } from './tool-pin-gate.js';

/** The REPL's session: servers not started yet (the caller starts them behind the first frame). */
export function openChatSession(runtime: Runtime, keeper?: SessionKeeper): { session: ChatSession; host: McpHost } {
  const status = new StatusFeed();
  const notices = new NoticeFeed();
  const offersChanged = new OffersFeed();
  const questions = new QuestionBook();
  const records = new ServerRequestFeed();
  const { servers, roots } = runtime.config;
  const llm = createOllamaClient(runtime.config.ollama, runtime.log);
  const serverRequests = new ServerRequestGate({
    servers,
    model: () => llm,
    log: runtime.log,
    questions,
    notify: notices.notify,
    openUrl,
    onRecord: records.notify,
  });
  const pins = runtime.toolPins;
  // The user is asked about tools new or changed since they accepted them (the question feed).
  const vetTools =
    pins &&
    new ToolPinGate({
      store: new ToolPinStore(pins.dir),
      questions,
      acceptForRun: pins.acceptForRun,
      notify: notices.notify,
      log: runtime.log,
    });
  const host = new McpHost(servers, {
    log: runtime.log,
    onStatus: () => status.notify(),
    roots,
    onResourceUpdated: (server, uri) => notices.notify(`@${server}:${uri} changed.`),
    onOffersChanged: () => offersChanged.notify(),
    serverRequests,
    ...(vetTools ? { vetTools } : {}),
  });
  const session = new ChatSession(runtime, host, llm, {
    status,
    notices,
    offersChanged,
    questions,
    serverRequests: records,
    gate: serverRequests,
    ...(keeper ? { keeper } : {}),
  });
  return { session, host };
}
