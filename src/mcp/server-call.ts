/**
 * One tool call on a server's session, run as a task where the tool and the server take tasks (its
 * status reported as progress). Policy: a call unheard for the entry's timeout is cancelled (each
 * progress report or status resets it), and so is one that runs past a ceiling however alive it is.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { callToolAsTask, runsAsTask, type TaskCallOptions } from './task-call.js';
import { outputSchemasReady } from './lazy-schema-validator.js';

/** However long a call keeps reporting progress, it is cancelled after this (or its own timeout, if longer). */
const PROGRESS_CEILING_MS = 30 * 60_000;

export interface ServerCallOptions extends Omit<TaskCallOptions, 'idleMs' | 'ceilingMs'> {
  /** The entry's timeout. */
  timeoutMs: number;
}

export async function callServerTool(
  client: Client,
  spec: Tool | undefined,
  tool: string,
  args: Record<string, unknown>,
  options: ServerCallOptions,
): Promise<CallToolResult> {
  // A result is checked against its tool's output schema as it arrives: the checker must be loaded.
  await outputSchemasReady(client);
  const { timeoutMs, ...taskOptions } = options;
  const ceilingMs = Math.max(timeoutMs, PROGRESS_CEILING_MS);
  if (runsAsTask(client, spec))
    return callToolAsTask(client, tool, args, { ...taskOptions, idleMs: timeoutMs, ceilingMs });
  return callPlainly(client, tool, args, options, ceilingMs);
}

async function callPlainly(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  { signal, timeoutMs, onProgress }: ServerCallOptions,
  ceilingMs: number,
): Promise<CallToolResult> {
  // The SDK never removes the listener it adds to the signal it is given, so it gets one that lives
  // only as long as this call: the caller's (a whole turn's) collects nothing, and an abort after the
  // call has finished cannot send a cancellation for it. Without a caller's signal there is nothing
  // to forward.
  const call = signal ? new AbortController() : undefined;
  const forward = (): void => call?.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  try {
    // The SDK sends notifications/cancelled to the server on both timeout and abort.
    const result = await client.callTool({ name: tool, arguments: args }, undefined, {
      signal: call?.signal,
      timeout: timeoutMs,
      // Asking for progress (the SDK sends a progressToken) is what lets a long call outlive the timeout.
      onprogress: onProgress,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: ceilingMs,
    });
    return result as CallToolResult;
  } finally {
    signal?.removeEventListener('abort', forward);
  }
}
