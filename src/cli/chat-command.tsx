/**
 * `mcp-chat` / `mcp-chat chat`: the REPL. It renders at once; servers start behind it
 * and report into the status bar. On exit, every server process is stopped.
 */
import { EventEmitter } from 'node:events';
import { render } from 'ink';
import { McpHost } from '../mcp/host.js';
import { createOllamaClient } from '../ollama-client.js';
import { App } from '../ui/App.js';
import { ChatSession } from '../ui/chat-session.js';
import { ExitCode, UsageError } from '../errors.js';
import type { Runtime } from './runtime.js';

export async function chatCommand(runtime: Runtime): Promise<number> {
  if (!process.stdin.isTTY) {
    throw new UsageError('the chat needs an interactive terminal', 'For scripts and pipes use: mcp-chat ask "…"');
  }
  const statusEvents = new EventEmitter();
  const host = new McpHost(runtime.config.servers, { log: runtime.log, onStatus: () => statusEvents.emit('change') });
  const session = new ChatSession(runtime, host, createOllamaClient(runtime.config.ollama, runtime.log));
  const subscribeStatus = (listener: () => void): (() => void) => {
    statusEvents.on('change', listener);
    return () => statusEvents.off('change', listener);
  };
  const started = host.start();
  // Ctrl+C is a key here, not a signal: the App decides between cancelling a turn and quitting.
  const app = render(<App session={session} subscribeStatus={subscribeStatus} />, { exitOnCtrlC: false });
  const onTerminate = (): void => app.unmount();
  process.once('SIGTERM', onTerminate);
  process.once('SIGHUP', onTerminate);
  try {
    await app.waitUntilExit();
  } finally {
    process.off('SIGTERM', onTerminate);
    process.off('SIGHUP', onTerminate);
    await started;
    await host.close();
  }
  return ExitCode.ok;
}
