/**
 * Opens an MCP client session to one configured server. Stdio children get the SDK's
 * minimal environment plus their own `env` (never the parent's whole environment),
 * and their stderr is piped to the log rather than the terminal Ink owns.
 */
import { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ServerConfig, StdioServerConfig } from '../config/types.js';
import { assertNever, errorMessage } from '../errors.js';
import type { Logger } from '../log.js';
import { PACKAGE_VERSION } from '../paths.js';
import { StderrTail } from './stderr-tail.js';
import { connectRemote } from './connect-remote.js';

export const CLIENT_INFO = { name: 'mcp-chat', version: PACKAGE_VERSION };

export interface Connection {
  client: Client;
  /** Recent stderr of a stdio child; empty for remote servers. */
  stderrTail(): string;
}

export interface ConnectOptions {
  log: Logger;
  /** Bound on the initialize handshake. */
  timeoutMs: number;
  /** Called once when the session ends for any reason other than our own close. */
  onClosed: () => void;
}

export async function connectServer(config: ServerConfig, options: ConnectOptions): Promise<Connection> {
  switch (config.kind) {
    case 'stdio':
      return connectStdio(config, options);
    case 'remote':
      return connectRemote(config, options);
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
  const stderrTail = new StderrTail(options.log);
  // The SDK hands out a PassThrough before spawning, so no early line is lost.
  if (transport.stderr instanceof Readable) stderrTail.attach(transport.stderr);
  const client = new Client(CLIENT_INFO);
  client.onclose = options.onClosed;
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
  } catch (error) {
    client.onclose = undefined;
    await client.close().catch(() => undefined);
    // Let the piped stderr drain through readline so the failure shows the child's last words.
    await new Promise((resolve) => setImmediate(resolve));
    const tail = stderrTail.text();
    throw new Error(`${errorMessage(error)}${tail ? `\nlast output:\n${tail}` : ''}`, { cause: error });
  }
  return { client, stderrTail: () => stderrTail.text() };
}
