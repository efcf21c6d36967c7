/**
 * The by-hand requests over `node:http` instead of `fetch`, through the same request code as
 * mcp-chat's model client (src/ollama/http-request.ts): the turn benchmark sets the orchestrated
 * turn beside a by-hand turn on the client's own transport too, so that the ratio to the `fetch`
 * baseline is not read as the orchestration's cost alone.
 */
import { readText, sendHttpRequest } from '../../src/ollama/http-request.js';
import type { ByHandFetch } from './ollama-by-hand.js';

export const httpFetch: ByHandFetch = async (url, init) => {
  const reply = await sendHttpRequest(new URL(url), init);
  const status = reply.statusCode ?? 0;
  return {
    ok: status >= 200 && status < 300,
    status,
    body: reply,
    json: async () => JSON.parse(await readText(reply)),
  };
};
