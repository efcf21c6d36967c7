/**
 * The Ollama client's HTTP requests (src/ollama/http-request.ts) against a real server on
 * 127.0.0.1: what goes out (method, headers in each form `fetch` accepts, body), what a failure
 * before the answer becomes (a `ConnectionError`, retried) and what a cancel becomes (an
 * `AbortError`, not retried).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError } from '../../src/ollama/failures.js';
import { readText, sendHttpRequest } from '../../src/ollama/http-request.js';

interface Seen {
  method: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let base: URL;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/silent') return; // never answers: only a cancel ends the request
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (piece: string) => (body += piece));
    req.on('end', () => {
      const seen: Seen = { method: req.method ?? '', headers: req.headers, body };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function echo(init: Parameters<typeof sendHttpRequest>[1]): Promise<Seen> {
  const reply = await sendHttpRequest(new URL('/echo', base), init, new AbortController().signal);
  expect(reply.statusCode).toBe(200);
  return JSON.parse(await readText(reply)) as Seen;
}

describe('sendHttpRequest', () => {
  it('sends the method, a record of headers and a text body, with its length', async () => {
    const body = JSON.stringify({ model: 'qwen3:8b', prompt: 'ünïcode' });
    const seen = await echo({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(seen.method).toBe('POST');
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(seen.body).toBe(body);
  });

  it('reads headers given as `Headers` or as pairs, and a body given as bytes', async () => {
    const fromHeaders = await echo({ headers: new Headers({ 'X-Probe': 'one' }) });
    expect(fromHeaders.method).toBe('GET');
    expect(fromHeaders.headers['x-probe']).toBe('one');
    const fromPairs = await echo({
      method: 'POST',
      headers: [['X-Probe', 'two']],
      body: new TextEncoder().encode('{}'),
    });
    expect(fromPairs.headers['x-probe']).toBe('two');
    expect(fromPairs.body).toBe('{}');
  });

  it('refuses a body that is not text or bytes, before anything is sent', () => {
    expect(() =>
      sendHttpRequest(base, { method: 'POST', body: new Blob(['{}']) }, new AbortController().signal),
    ).toThrow('a request to Ollama carries a JSON text body');
  });

  it('a refused connection is a ConnectionError whose cause says ECONNREFUSED', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const failure = await sendHttpRequest(new URL(`http://127.0.0.1:${port}/`), {}, new AbortController().signal).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ConnectionError);
    expect(Reflect.get((failure as ConnectionError).cause as object, 'code')).toBe('ECONNREFUSED');
  });

  it('a cancel while waiting for the answer is an AbortError, not a connection failure', async () => {
    const cancel = new AbortController();
    const pending = sendHttpRequest(new URL('/silent', base), {}, cancel.signal);
    cancel.abort();
    const failure = await pending.catch((error: unknown) => error);
    expect(failure).not.toBeInstanceOf(ConnectionError);
    expect((failure as Error).name).toBe('AbortError');
  });
});
