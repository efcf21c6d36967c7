/**
 * `mcp-chat serve` as the user runs it: the built CLI in a child process on port 0, its URL read
 * from the first stdout line, and WebSocket clients (the `ws` package) that collect what the
 * server sends and wait for a message, never for a fixed time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import readline from 'node:readline';
import WebSocket from 'ws';
import { CLI } from './run-cli.js';
import { CONDITION_WAIT } from './condition-wait.js';

export interface ServeProcess {
  child: ChildProcess;
  /** The first stdout line: `http://127.0.0.1:PORT/?token=TOKEN`. */
  url: URL;
  token: string;
  /** `127.0.0.1:PORT`. */
  host: string;
  stderr: () => string;
  /** SIGTERM, then the exit code once it has exited; rejects, with its stderr, if it does not. */
  stop: () => Promise<number | null>;
}

/** `cli`: the built CLI (the benchmarks, compiled elsewhere, name their own). */
export function startServe(args: string[], env: Record<string, string>, cwd: string, cli = CLI): Promise<ServeProcess> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', ...args], { cwd, env, stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`serve did not exit after SIGTERM:\n${stderr}`)),
        CONDITION_WAIT.timeout,
      );
    });
    return Promise.race([exited, hung]).finally(() => clearTimeout(timer));
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL:\n${stderr}`)), CONDITION_WAIT.timeout);
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before printing its URL:\n${stderr}`)));
    readline.createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      const url = new URL(line);
      resolve({ child, url, token: url.searchParams.get('token') ?? '', host: url.host, stderr: () => stderr, stop });
    });
  });
}

export interface WireMessage {
  type: string;
  payload?: Record<string, unknown>;
}

export class WsClient {
  readonly received: WireMessage[] = [];
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.received.push(JSON.parse(String(data)) as WireMessage);
      this.wake();
    });
    socket.on('close', () => this.wake());
  }

  /** Connects to `/ws` (with `?session=` when given), with the server's own Origin unless told otherwise. */
  static async open(
    serve: ServeProcess,
    options: { session?: string; origin?: string; headers?: Record<string, string> } = {},
  ): Promise<WsClient> {
    const query = new URLSearchParams({ token: serve.token });
    if (options.session !== undefined) query.set('session', options.session);
    const socket = new WebSocket(`ws://${serve.host}/ws?${query}`, {
      origin: options.origin ?? `http://${serve.host}`,
      ...(options.headers ? { headers: options.headers } : {}),
    });
    const client = new WsClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message (from `from` on) that matches; rejects if the connection closes or nothing comes. */
  async waitFor(match: (message: WireMessage) => boolean, from = 0): Promise<WireMessage> {
    const deadline = Date.now() + CONDITION_WAIT.timeout;
    for (;;) {
      const found = this.received.slice(from).find(match);
      if (found) return found;
      if (this.socket.readyState === WebSocket.CLOSED) throw new Error(`closed; received ${this.describe()}`);
      if (Date.now() > deadline) throw new Error(`no such message; received ${this.describe()}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const wake of waiting) wake();
  }

  /** The turn's end: a `status` `complete` without a tool, from `from` on. */
  turnOver(from = 0): Promise<WireMessage> {
    return this.waitFor((m) => m.type === 'status' && m.payload?.state === 'complete' && !('tool' in m.payload), from);
  }

  /** The text chunks from `from` on, joined. */
  text(from = 0): string {
    return this.received
      .slice(from)
      .filter((m) => m.type === 'text')
      .map((m) => String(m.payload?.content))
      .join('');
  }

  close(): void {
    this.socket.close();
  }

  private describe(): string {
    return JSON.stringify(this.received.map((m) => (m.type === 'error' ? m : m.type)));
  }
}

export const sessionIdOf = (client: WsClient): string =>
  String(client.received.find((m) => m.type === 'connection')?.payload?.sessionId);

/** The HTTP status a GET gets with exactly these headers, on a connection of its own. */
export function requestStatus(host: string, path: string, headers: Record<string, string>): Promise<number> {
  const [hostname, port] = host.split(':');
  return new Promise((resolve, reject) => {
    // A connection of its own: a refused upgrade's is closed by the server, and must not be reused.
    const request = http.request({ hostname, port: Number(port), path, headers, agent: false });
    request.once('upgrade', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    request.once('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.once('error', reject);
    request.end();
  });
}

/** The HTTP status an upgrade to `path` gets with these headers (101: it was accepted). */
export function upgradeStatus(host: string, path: string, headers: Record<string, string>): Promise<number> {
  return requestStatus(host, path, {
    connection: 'Upgrade',
    upgrade: 'websocket',
    'sec-websocket-version': '13',
    'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
    ...headers,
  });
}

/**
 * A WebSocket client that has gone silent (a laptop asleep, a dropped network): it completes the
 * upgrade by hand, then never reads or answers a ping. Resolves once the server has closed it.
 */
export async function silentClient(serve: ServeProcess): Promise<{ closed: Promise<void> }> {
  const [hostname, port] = serve.host.split(':');
  const socket = net.connect(Number(port), hostname);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    [
      `GET /ws?token=${serve.token} HTTP/1.1`,
      `Host: ${serve.host}`,
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      '',
      '',
    ].join('\r\n'),
  );
  await new Promise<void>((resolve, reject) =>
    socket.once('data', (data: Buffer) =>
      data.toString('latin1').startsWith('HTTP/1.1 101') ? resolve() : reject(new Error(data.toString('latin1'))),
    ),
  );
  // Whatever comes next (the server's messages, its pings) is read and left unanswered.
  socket.on('data', () => undefined);
  return { closed };
}
