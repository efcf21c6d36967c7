/**
 * `mcp-chat serve`: the chat over WebSocket for several clients, and a page in the browser. The
 * first stdout line is the URL to open, token included, and nothing else is written to stdout;
 * the token is also kept in the state directory (0600) for scripts. SIGINT or SIGTERM stops it:
 * every session's servers are stopped and every session saved before the process ends, within a
 * time limit that says what was still under way when it is reached.
 */
import { createOllamaClient } from '../ollama/client.js';
import { createRuntime, type GlobalOptions } from '../session/runtime.js';
import { ExitCode } from '../shared/errors.js';
import { stillPendingAfter } from '../shared/still-pending.js';
import { SessionStore } from '../state/session-store.js';
import { Access, isLoopback, writeTokenFile } from './access.js';
import { buildServer } from './server.js';
import { SessionRegistry } from './session-registry.js';
import { serveSettings, urlHost, type ServeFlags } from './serve-options.js';

/** Sessions held at once: each runs its own MCP servers. */
const MAX_SESSIONS = 16;
/** A person types far fewer; a script that floods is refused. */
const MESSAGES_PER_SECOND = 10;
/**
 * How long a stop may take: each session's servers get the SDK's own grace (end of input, then
 * SIGTERM, then SIGKILL, two seconds apart), and a connection one second to answer its close.
 */
const STOP_LIMIT_MS = 10_000;

/** Where the command writes: the CLI's output, which makes every line inert for the terminal. */
export interface ServeOutput {
  stdout: (line: string) => void;
  stderr: (text: string) => void;
  warn: (line: string) => void;
}

export async function serveCommand(options: GlobalOptions, output: ServeOutput, flags: ServeFlags): Promise<number> {
  const settings = serveSettings(flags);
  const runtime = await createRuntime(options, {
    notify: (line) => output.stderr(`notice: ${line}\n`),
    warn: output.warn,
  });
  if (settings.warning) output.warn(settings.warning);
  const store = SessionStore.open();
  const registry = new SessionRegistry({
    runtime,
    store,
    modelGiven: options.model !== undefined,
    maxSessions: MAX_SESSIONS,
  });
  const llm = createOllamaClient(runtime.config.ollama, runtime.log);
  let port = settings.port;
  const app = await buildServer({
    access: new Access(settings.token, isLoopback(settings.host), () => port),
    registry,
    store,
    log: runtime.log,
    limits: { heartbeatMs: settings.heartbeatMs, messagesPerSecond: MESSAGES_PER_SECOND },
    checkOllama: () => llm.checkAvailable(),
    ollamaUrl: runtime.config.ollama.baseUrl,
  });
  await app.listen({ host: settings.host, port: settings.port });
  const address = app.server.address();
  if (address !== null && typeof address === 'object') port = address.port;
  writeTokenFile(settings.token);
  output.stdout(`http://${urlHost(settings.host)}:${port}/?token=${settings.token}`);
  runtime.log.info({ host: settings.host, port }, 'serving');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  runtime.log.info('stopping');
  const pending = await stillPendingAfter(
    { 'closing the connections': app.close(), "stopping the sessions' servers": registry.closeAll() },
    STOP_LIMIT_MS,
  );
  if (pending.length > 0) {
    runtime.log.warn({ pending }, 'stop cut short');
    output.warn(`stopped after ${STOP_LIMIT_MS / 1000} s with this still under way: ${pending.join('; ')}`);
  }
  return ExitCode.ok;
}
