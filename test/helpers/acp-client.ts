/**
 * The SDK's own client side driving the built `mcp-chat acp` over real stdio: the child's stdout
 * is recorded line by line as well (it must carry protocol messages only), and raw lines can be
 * written to its stdin beside the SDK's own.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { PassThrough, Readable, Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  type ClientConnection,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import { CLI } from './run-cli.js';

export interface AcpChild {
  child: ChildProcessWithoutNullStreams;
  connection: ClientConnection;
  /** Every `session/update` received, in order. */
  updates: SessionNotification[];
  /** Every permission request received, in order. */
  permissions: RequestPermissionRequest[];
  /** Every line the child wrote to stdout. */
  stdoutLines: () => string[];
  stderr: () => string;
  /** Resolves with the exit code once the child has exited. */
  exited: Promise<number | null>;
}

export type PermissionAnswer = (request: RequestPermissionRequest) => Promise<RequestPermissionResponse>;

export function startAcp(options: { cwd: string; env: Record<string, string>; answer: PermissionAnswer }): AcpChild {
  const child = spawn(process.execPath, [CLI, 'acp'], { cwd: options.cwd, env: options.env, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const tee = new PassThrough();
  child.stdout.pipe(tee);
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const app = client({ name: 'test editor' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
    })
    .onRequest('session/request_permission', ({ params }) => {
      permissions.push(params);
      return options.answer(params);
    });
  const output = Writable.toWeb(child.stdin) as WritableStream<Uint8Array>;
  const input = Readable.toWeb(tee) as ReadableStream<Uint8Array>;
  const connection = app.connect(ndJsonStream(output, input));
  const stdoutLines = (): string[] => stdout.split('\n').filter((line) => line !== '');
  return { child, connection, updates, permissions, stdoutLines, stderr: () => stderr, exited };
}

/** The text of every update of `kind` for the session, joined. */
export function chunkText(updates: readonly SessionNotification[], kind: string): string {
  return updates
    .map(({ update }) => update)
    .flatMap((update) =>
      update.sessionUpdate === kind &&
      'content' in update &&
      !Array.isArray(update.content) &&
      update.content?.type === 'text'
        ? [update.content.text]
        : [],
    )
    .join('');
}
