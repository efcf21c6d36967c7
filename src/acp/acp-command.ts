/**
 * `mcp-chat acp`: the ACP agent on stdin and stdout, for editors. Stdout carries protocol messages
 * only (everything else goes to the log); the command ends when the editor closes stdin, once
 * every session's servers are stopped and every session is saved.
 */
import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import type { GlobalOptions } from '../session/runtime.js';
import { ExitCode } from '../shared/errors.js';
import { SessionStore } from '../state/session-store.js';
import { AcpAgent } from './acp-agent.js';

export async function acpCommand(globals: GlobalOptions): Promise<number> {
  const store = SessionStore.open();
  const agent = new AcpAgent(globals, store);
  const output = Writable.toWeb(process.stdout) as WritableStream<Uint8Array>;
  const input = Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;
  const connection = agent.app().connect(ndJsonStream(output, input));
  await connection.closed;
  await agent.closeAll();
  await store.flush();
  return ExitCode.ok;
}
