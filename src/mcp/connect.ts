/**
 * Opens an MCP client session to one configured server. Stdio children get the SDK's
 * minimal environment plus their own `env` (never the parent's whole environment),
 * and their stderr is piped to the log rather than the terminal Ink owns. What they say
 * and why they fail never carries the secrets their entry gives them.
 */
import { Readable } from 'node:stream';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ServerConfig, StdioServerConfig } from '../config/types.js';
import { assertNever, errorMessage } from '../shared/errors.js';
import { type Connection, type ConnectOptions, createClient } from './connection.js';
import { errorWithoutSecrets, hideValues, secretValues } from './server-secrets.js';
import { StderrTail } from './stderr-tail.js';
import { WarningLimiter } from './warning-limiter.js';

export async function connectServer(config: ServerConfig, options: ConnectOptions): Promise<Connection> {
  switch (config.kind) {
    case 'stdio':
      return connectStdio(config, options);
    case 'remote': {
      // Loaded on use: the HTTP and SSE transports and undici would slow every start-up that has no remote server.
      const { connectRemote } = await import('./connect-remote.js');
      return connectRemote(config, options);
    }
    default:
      return assertNever(config);
  }
}

async function connectStdio(config: StdioServerConfig, options: ConnectOptions): Promise<Connection> {
  // Security: only the entry's own variables; the transport adds the SDK's minimal set (PATH, HOME, …).
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: config.env,
    cwd: config.cwd,
    stderr: 'pipe',
  });
  const secrets = secretValues(config);
  const stderrTail = new StderrTail(options.log, () => secretValues(config));
  // The SDK hands out a PassThrough before spawning, so no early line is lost.
  if (transport.stderr instanceof Readable) stderrTail.attach(transport.stderr);
  const client = createClient(options, config);
  client.onclose = options.onClosed;
  let closeReason: string | undefined;
  // A flood of garbage on stdout is one expected failure many times over: no stack trace, and a bounded count.
  const skippedLines = new WarningLimiter((message, fields) => options.log.warn(fields, message));
  client.onerror = (error) => {
    // Security: a skipped line is quoted in its parse error, and a spawn error carries the command line.
    const loggable = errorWithoutSecrets(error, secrets);
    if (isSkippedLine(error)) {
      skippedLines.warn('server wrote a line on stdout that is not JSON-RPC; skipped', { reason: loggable.message });
      return;
    }
    options.log.warn({ err: loggable }, 'server transport error');
    // After some errors (a message over its size limit) the SDK closes the transport at once, which
    // clears its pid: that error, not the child's exit, is then why the session ended.
    setImmediate(() => {
      if (transport.pid === null) closeReason ??= loggable.message;
    });
  };
  // The host closing mid-handshake stops the child itself, and waits for it: the SDK's own close on
  // a failed `initialize` is not awaited, so a child deaf to end of input would outlive us.
  let stopping: Promise<void> | undefined;
  const stop = (): void => void (stopping = transport.close());
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
  } catch (error) {
    client.onclose = undefined;
    await client.close().catch(() => undefined);
    await stopping;
    // Let the piped stderr drain through the reader so the failure shows the child's last words.
    await new Promise((resolve) => setImmediate(resolve));
    const tail = stderrTail.text();
    // Security: the cause (a spawn error lists every argument) stays unlogged: see errorWithoutSecrets.
    throw new Error(`${hideValues(errorMessage(error), secrets)}${tail ? `\nlast output:\n${tail}` : ''}`, {
      cause: error,
    });
  } finally {
    options.signal?.removeEventListener('abort', stop);
  }
  return { client, stderrTail: () => stderrTail.text(), closeReason: () => closeReason };
}

/** A line the SDK could not parse (not JSON, or not a JSON-RPC message): it drops it and reads on. */
function isSkippedLine(error: Error): boolean {
  return error instanceof SyntaxError || error.name === 'ZodError';
}
