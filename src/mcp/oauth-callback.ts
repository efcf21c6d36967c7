/**
 * The loopback redirect of an OAuth authorization-code flow (RFC 8252 §7.3): a small HTTP server on
 * 127.0.0.1 that receives `GET /callback?code=…&state=…` from the user's browser. An answer counts
 * only when its `state` is one this flow handed out; anything else is refused and waited past.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { http } from '../shared/node-http.js';
import type { AddressInfo } from 'node:net';
import { errorMessage } from '../shared/errors.js';

const CALLBACK_PATH = '/callback';
/** An authorization server's error text is quoted to the user; this much is enough to say why. */
const MAX_ERROR_CHARS = 300;

export interface AuthorizationCallback {
  /** `http://127.0.0.1:<port>/callback`. */
  readonly redirectUrl: string;
  /**
   * The code of the answer that carries `state`; rejects when that answer is an error, after
   * `timeoutMs`, or on close. Never an unhandled rejection when nobody awaits it.
   */
  expect(state: string, timeoutMs: number): Promise<string>;
  close(): Promise<void>;
}

interface Waiter {
  resolve: (code: string) => void;
  reject: (error: Error) => void;
}

const PAGE = {
  done: 'mcp-chat: authorised. You can close this window and go back to the terminal.',
  refused: 'mcp-chat: the authorization was refused; the terminal says why.',
  unknown: 'mcp-chat: this answer belongs to no authorization under way (its state is unknown); it was ignored.',
};

function answer(response: ServerResponse, status: number, text: string): void {
  // Plain text: nothing from the query is echoed, so nothing can be injected into the page.
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(`${text}\n`);
}

/** One request to the callback: it settles the wait for its `state`, if one is under way, and answers the browser. */
function receiveCallback(waiting: Map<string, Waiter>, request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH) return answer(response, 404, 'not found');
  const state = url.searchParams.get('state') ?? '';
  const waiter = waiting.get(state);
  // Security: only the state this flow sent proves the answer comes from the authorization it started
  // (CSRF); a forged or stale callback neither completes nor ends the wait.
  if (!waiter) return answer(response, 400, PAGE.unknown);
  waiting.delete(state);
  const code = url.searchParams.get('code');
  const error = url.searchParams.get('error');
  if (code && !error) {
    answer(response, 200, PAGE.done);
    waiter.resolve(code);
    return;
  }
  answer(response, 400, PAGE.refused);
  const description = url.searchParams.get('error_description');
  const why = `${error ?? 'no code in the answer'}${description ? `: ${description}` : ''}`.slice(0, MAX_ERROR_CHARS);
  waiter.reject(new Error(`the authorization server refused: ${why}`));
}

/** Listens on 127.0.0.1:`port` (0: a free port). */
export async function listenForCallback(port = 0): Promise<AuthorizationCallback> {
  const waiting = new Map<string, Waiter>();
  const server = http.createServer((request, response) => receiveCallback(waiting, request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        new Error(
          `cannot listen on 127.0.0.1:${port} for the OAuth callback (${errorMessage(error)}); ` +
            'free that port or change "oauth.callbackPort"',
        ),
      ),
    );
    // Security: loopback only; the code must not be receivable from another machine.
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${bound}${CALLBACK_PATH}`,
    expect(state, timeoutMs) {
      const promise = new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(state);
          reject(new Error(`no answer from the browser within ${Math.round(timeoutMs / 1000)} s`));
        }, timeoutMs);
        const settle = (): void => clearTimeout(timer);
        waiting.set(state, {
          resolve: (code) => (settle(), resolve(code)),
          reject: (error) => (settle(), reject(error)),
        });
      });
      promise.catch(() => undefined);
      return promise;
    },
    async close() {
      for (const waiter of waiting.values()) waiter.reject(new Error('the authorization was abandoned'));
      waiting.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
