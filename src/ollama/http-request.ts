/**
 * One request to Ollama over `node:http` / `node:https`, the reply left as the socket's Node
 * stream: the `ollama` package takes a `fetch` of our choosing, and this one reads the streamed
 * NDJSON straight from the socket instead of through undici's web streams laid over it.
 */
import type { IncomingMessage } from 'node:http';
import { http, loadHttps } from '../shared/node-http.js';
import { ConnectionError } from './failures.js';

/** What of `fetch`'s `init` the `ollama` package uses: method, headers, a JSON body. */
export type HttpRequestInit = Pick<RequestInit, 'method' | 'headers' | 'body'>;

/**
 * Sends the request and resolves with the reply once its status and headers are in. A failure
 * before that (refused, reset, name not found, TLS) rejects with a `ConnectionError`; `signal`
 * tears the request (and a reply being read) down with an `AbortError`.
 */
export function sendHttpRequest(url: URL, init: HttpRequestInit, signal?: AbortSignal): Promise<IncomingMessage> {
  const body = requestBody(init.body);
  const send = url.protocol === 'https:' ? loadHttps().request : http.request;
  return new Promise((resolve, reject) => {
    const request = send(url, { method: init.method ?? 'GET', headers: plainHeaders(init.headers), signal }, resolve);
    request.on('error', (error) => reject(error.name === 'AbortError' ? error : new ConnectionError(error)));
    request.end(body);
  });
}

/** The whole body of a reply, as text. */
export async function readText(reply: IncomingMessage): Promise<string> {
  reply.setEncoding('utf8');
  let text = '';
  for await (const piece of reply) text += String(piece);
  return text;
}

function requestBody(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array) {
    return body ?? undefined;
  }
  throw new TypeError('a request to Ollama carries a JSON text body');
}

function plainHeaders(headers: RequestInit['headers']): Record<string, string> {
  if (headers === undefined) return {};
  // A plain record (what the package passes) is read as it is. It is checked first because the
  // global `Headers` is a lazy getter: touching it loads all of undici, which this path never uses.
  if (isPlainRecord(headers)) {
    return Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, typeof value === 'string' ? value : value.join(', ')]),
    );
  }
  return Object.fromEntries(new Headers(headers));
}

function isPlainRecord(
  headers: NonNullable<RequestInit['headers']>,
): headers is Record<string, string | readonly string[]> {
  const prototype: unknown = Object.getPrototypeOf(headers);
  return prototype === Object.prototype || prototype === null;
}
