/**
 * `mcp-server --http <port>`: Streamable HTTP at `http://127.0.0.1:<port>/mcp`, one Server per
 * MCP session. Security: loopback only; every request must carry `Authorization: Bearer <token>`
 * (401 otherwise), and its Host must be this address, so a web page cannot reach it by DNS rebinding.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ExitCode, McpChatError } from '../shared/errors.js';
import { http } from '../shared/node-http.js';

export interface HttpServing {
  url: string;
  close: () => Promise<void>;
}

const IN_USE_HINT = 'Pick another with --http <port>, or --http 0 for any free one.';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

// Security: compared as digests in constant time, so the answer's timing says nothing of the token.
function hasToken(req: IncomingMessage, expected: Buffer): boolean {
  const header = req.headers.authorization ?? '';
  const given = /^Bearer (.+)$/i.exec(header)?.[1];
  return given !== undefined && timingSafeEqual(digest(given), expected);
}

class Sessions {
  private readonly open = new Map<string, StreamableHTTPServerTransport>();

  constructor(private readonly createServer: () => Server) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const transport = this.open.get(id);
      // 404 tells the client its session is gone, so it starts another.
      if (!transport) return refuse(res, 404, 'Session not found');
      return transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return refuse(res, 400, 'Bad Request: send initialize first');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => void this.open.set(sessionId, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.open.delete(transport.sessionId);
    };
    await this.createServer().connect(transport);
    await transport.handleRequest(req, res);
  }

  async closeAll(): Promise<void> {
    const transports = [...this.open.values()];
    this.open.clear();
    await Promise.all(transports.map((transport) => transport.close().catch(() => undefined)));
  }
}

export async function serveHttp(
  port: number,
  token: string,
  createServer: () => Server,
  onError: (message: string) => void,
): Promise<HttpServing> {
  const expected = digest(token);
  const sessions = new Sessions(createServer);
  let allowedHosts = new Set<string>();
  const server = http.createServer((req, res) => {
    if (!allowedHosts.has(req.headers.host ?? '')) return refuse(res, 403, 'Forbidden: wrong Host header');
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp') return refuse(res, 404, 'Not found: use /mcp');
    if (!hasToken(req, expected))
      return refuse(res, 401, 'Unauthorized: send Authorization: Bearer <token>', { 'www-authenticate': 'Bearer' });
    sessions.handle(req, res).catch((error: unknown) => {
      onError(error instanceof Error ? error.message : String(error));
      if (!res.headersSent) refuse(res, 500, 'Internal error');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' ? new McpChatError(`port ${port} is in use`, ExitCode.runtime, IN_USE_HINT) : error,
      ),
    );
    server.listen(port, '127.0.0.1', resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  allowedHosts = new Set([`127.0.0.1:${bound}`, `localhost:${bound}`]);
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    async close() {
      await sessions.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
