/**
 * The reference peer, `@modelcontextprotocol/server-everything`, as the tests start it: over
 * stdio as a child of the host, or over Streamable HTTP as a server on 127.0.0.1.
 */
import path from 'node:path';
import type { ServerConfig } from '../../src/config/types.js';
import { REPO_ROOT, remoteServer, stdioServer } from './server-configs.js';
import { freePort, spawnNodeServer } from './spawn-server.js';

export const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** Starts it over Streamable HTTP (stopped by `killAll`); its MCP endpoint's URL. */
export async function everythingOverHttp(): Promise<string> {
  const port = await freePort();
  await spawnNodeServer([EVERYTHING, 'streamableHttp'], { PORT: String(port) }, /listening on port (\d+)/);
  return `http://127.0.0.1:${port}/mcp`;
}

/** Its entry over each transport, named `everything`, with the per-call timeout given. */
export function everythingTransports(timeoutMs: number): [string, () => Promise<ServerConfig>][] {
  return [
    ['stdio', async () => stdioServer('everything', [EVERYTHING, 'stdio'], { timeoutMs })],
    ['Streamable HTTP', async () => remoteServer('everything', await everythingOverHttp(), { timeoutMs })],
  ];
}
