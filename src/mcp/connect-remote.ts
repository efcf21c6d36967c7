/**
 * Opens a session to a remote MCP server: Streamable HTTP first, and the legacy SSE
 * transport when the server answers that request with a 4xx that is not about
 * authentication and the entry does not pin a transport.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RemoteServerConfig } from '../config/types.js';
import type { Connection, ConnectOptions } from './connect.js';
import { CLIENT_INFO } from './connect.js';

type RemoteTransport = StreamableHTTPClientTransport | SSEClientTransport;

function createTransport(kind: 'http' | 'sse', config: RemoteServerConfig): RemoteTransport {
  const url = new URL(config.url);
  const requestInit = { headers: config.headers };
  return kind === 'http'
    ? new StreamableHTTPClientTransport(url, { requestInit })
    : new SSEClientTransport(url, { requestInit });
}

/** A 4xx from a Streamable HTTP request other than 401/403 means "try SSE" (MCP back-compat rule). */
function wantsSseFallback(error: unknown): boolean {
  if (!(error instanceof StreamableHTTPError) || error.code === undefined) return false;
  return error.code >= 400 && error.code < 500 && error.code !== 401 && error.code !== 403;
}

async function open(kind: 'http' | 'sse', config: RemoteServerConfig, options: ConnectOptions): Promise<Client> {
  const client = new Client(CLIENT_INFO);
  try {
    await client.connect(createTransport(kind, config), { timeout: options.timeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return client;
}

export async function connectRemote(config: RemoteServerConfig, options: ConnectOptions): Promise<Connection> {
  let client: Client;
  if (config.transport === 'auto') {
    try {
      client = await open('http', config, options);
    } catch (error) {
      if (!wantsSseFallback(error)) throw error;
      options.log.info({ url: config.url }, 'Streamable HTTP refused; falling back to SSE');
      client = await open('sse', config, options);
    }
  } else {
    client = await open(config.transport, config, options);
  }
  client.onclose = options.onClosed;
  return { client, stderrTail: () => '' };
}
