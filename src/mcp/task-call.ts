/**
 * A tool call run as an MCP task (protocol 2025-11-25), through the SDK's experimental tasks
 * client: `callToolStream` creates the task, polls it and fetches its result; each status it
 * reports goes to the call's progress line and the log. Policy: a task that keeps answering is
 * alive (up to a ceiling), as a call that keeps reporting progress is; a quiet one, or one the
 * user stops, is cancelled on the server (`tasks/cancel`), never left running there.
 */
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ResponseMessage } from '@modelcontextprotocol/sdk/shared/responseMessage.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  McpError,
  type Progress,
  type Task,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { assertNever, errorMessage } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import { isTerminal, type SessionTasks, type TaskStatus } from './session-tasks.js';
import { type Stop, userStop, Watchdog } from './task-watchdog.js';

/** A cancel is a courtesy to the server on the way out: the call waits for it no longer than this (or its timeout). */
const CANCEL_TIMEOUT_MS = 5_000;
/** How often a task is asked for its status while the SDK waits on its result, when the server suggests nothing. */
const DEFAULT_POLL_MS = 1_000;

export interface TaskCallOptions {
  /** The user's cancel (Esc, Ctrl+C). */
  signal?: AbortSignal;
  /** A task not heard of (status, progress) for this long is cancelled as timed out. */
  idleMs: number;
  /** However alive it is, a task is cancelled after this. */
  ceilingMs: number;
  /** Hears the task's status (as a message without numbers) and the server's progress reports. */
  onProgress: (progress: Progress) => void;
  /** The server's entry's secrets out of what it says, before the log and the session's list see it. */
  hide: (text: string) => string;
  log: Logger;
  tasks: SessionTasks;
}

/** Whether a call of `tool` runs as a task: the tool supports it and the server takes task-augmented `tools/call`. */
export function runsAsTask(client: Client, tool: Tool | undefined): boolean {
  const support = tool?.execution?.taskSupport;
  const serverTakes = client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
  return serverTakes && (support === 'optional' || support === 'required');
}

const STATUS_WORDS: Record<TaskStatus, string> = {
  working: 'working',
  input_required: 'input required',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** A task's status for the tool line: `working · Gathering sources...`. */
export function statusText(task: Pick<Task, 'status' | 'statusMessage'>): string {
  return [STATUS_WORDS[task.status], task.statusMessage].filter(Boolean).join(' · ');
}

type Step = { stop: Stop } | { next: IteratorResult<ResponseMessage<CallToolResult>> };

class TaskCall {
  private task: Task | undefined;
  private last: Task | undefined;
  private numbers: Progress | undefined;
  /** Set once the call has returned or thrown: nothing more reaches the caller. */
  private over = false;
  private polling = false;
  private readonly began = performance.now();
  /** Ends the SDK's requests still out (a poll, a pending result) once the call is over. */
  private readonly requests = new AbortController();
  private readonly watchdog: Watchdog;
  private readonly log: Logger;

  constructor(
    private readonly client: Client,
    private readonly tool: string,
    private readonly options: TaskCallOptions,
  ) {
    this.watchdog = new Watchdog(options.idleMs, options.ceilingMs);
    this.log = options.log.child({ tool });
  }

  async run(args: Record<string, unknown>): Promise<CallToolResult> {
    // The SDK's stream polls `tasks/get` on this signal and leaves an abort listener per poll: they
    // go with the signal when the call ends, but past ten Node would print a leak warning over the chat.
    setMaxListeners(0, this.requests.signal);
    const stream = this.client.experimental.tasks.callToolStream(
      { name: this.tool, arguments: args },
      CallToolResultSchema,
      {
        task: {},
        signal: this.requests.signal,
        // Each request may take as long as the whole call (the result waits for the user's answer
        // to an elicitation): whether the task is alive is the watchdog's call.
        timeout: this.options.ceilingMs,
        onprogress: (progress) => this.heardProgress(progress),
      },
    );
    const user = userStop(this.options.signal);
    const stopped = Promise.race([user.stopped, this.watchdog.fired]).then((stop): Step => ({ stop }));
    const timedOut = this.watchdog.fired.then((stop): Step => ({ stop }));
    let next = stream.next();
    try {
      for (;;) {
        // Until the task exists there is nothing to cancel: the user's stop waits for its id
        // (which a server gives at once), so the task is not left running there.
        const step = await Promise.race([
          next.then((result): Step => ({ next: result })),
          this.task ? stopped : timedOut,
        ]);
        if ('stop' in step) return await this.stopped(step.stop);
        if (step.next.done) throw new Error('the task ended without a result');
        const result = this.take(step.next.value);
        if (result) return result;
        next = stream.next();
      }
    } finally {
      this.over = true;
      this.watchdog.stop();
      user.release();
      this.requests.abort();
      stream.return(undefined).catch(() => undefined);
    }
  }

  private take(message: ResponseMessage<CallToolResult>): CallToolResult | undefined {
    switch (message.type) {
      case 'taskCreated':
        this.task = message.task;
        this.log.info(
          { taskId: message.task.taskId, ttl: message.task.ttl, pollInterval: message.task.pollInterval },
          'task created',
        );
        this.hear(message.task);
        return undefined;
      case 'taskStatus':
        this.hear(message.task);
        // The SDK now waits on `tasks/result` (which brings the server's question) and polls no
        // more: the status is asked for beside it, so the line and the watchdog still hear it.
        if (message.task.status === 'input_required') void this.pollWhileWaiting(message.task);
        return undefined;
      case 'result':
        this.ended(message.result.isError ? 'completed with an error result' : 'completed');
        // After `input_required` the result may come before a poll has heard the end: ask once, for the list.
        if (this.last && !isTerminal(this.last.status)) void this.refresh(this.last.taskId);
        return message.result;
      case 'error':
        throw this.failure(message.error);
      default:
        return assertNever(message);
    }
  }

  /** A status heard from the server: logged when it changed, told to the caller, remembered for the list. */
  private hear(task: Task): void {
    this.watchdog.alive();
    const seen =
      task.statusMessage === undefined ? task : { ...task, statusMessage: this.options.hide(task.statusMessage) };
    const newStatus = seen.status !== this.last?.status;
    const changed = newStatus || seen.statusMessage !== this.last?.statusMessage;
    this.last = seen;
    this.options.tasks.heard(seen, this.tool);
    if (!changed) return;
    // A new status is news; a new message for the same status may come every second for an hour.
    const entry = { taskId: seen.taskId, status: seen.status, statusMessage: seen.statusMessage };
    if (newStatus) this.log.info(entry, 'task status');
    else this.log.debug(entry, 'task status');
    if (!this.over) this.report();
  }

  private heardProgress(progress: Progress): void {
    if (this.over) return;
    this.watchdog.alive();
    this.numbers = progress;
    this.report();
  }

  /** The status as the message, and the server's numbers when it sends any (0 and no total when not). */
  private report(): void {
    const status = this.last ? statusText(this.last) : undefined;
    const message = [status, this.numbers?.message].filter(Boolean).join(' · ');
    const { progress = 0, total } = this.numbers ?? {};
    this.options.onProgress({ progress, ...(total === undefined ? {} : { total }), ...(message ? { message } : {}) });
  }

  private async pollWhileWaiting(task: Task): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    const { signal } = this.requests;
    const interval = task.pollInterval ?? DEFAULT_POLL_MS;
    while (!this.over) {
      await sleep(interval, undefined, { signal }).catch(() => undefined);
      if (this.over) return;
      try {
        const now = await this.poll(task.taskId);
        if (!this.over) this.hear(now);
        if (isTerminal(now.status)) return;
      } catch (error) {
        // Not heard is not alive: the watchdog decides, the result may still come.
        if (!this.over) this.log.debug({ taskId: task.taskId, err: errorMessage(error) }, 'task status poll failed');
      }
    }
  }

  /**
   * One `tasks/get`, on a signal of its own: the SDK leaves its abort listener on the signal a
   * request is given, so polls on the call's one signal would pile up a listener each.
   */
  private async poll(taskId: string): Promise<Task> {
    const { signal } = this.requests;
    const request = new AbortController();
    const abort = (): void => request.abort(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    try {
      const options = { signal: request.signal, timeout: this.options.idleMs };
      return await this.client.experimental.tasks.getTask(taskId, options);
    } finally {
      signal.removeEventListener('abort', abort);
    }
  }

  private async refresh(taskId: string): Promise<void> {
    try {
      this.hear(await this.client.experimental.tasks.getTask(taskId, { timeout: CANCEL_TIMEOUT_MS }));
    } catch (error) {
      this.log.debug({ taskId, err: this.options.hide(errorMessage(error)) }, 'task status after its result failed');
    }
  }

  /** Cancels the task on the server, then ends the call as the user's cancel or a timeout. */
  private async stopped(stop: Stop): Promise<never> {
    this.over = true;
    const task = this.task;
    if (task) {
      try {
        const timeout = Math.min(this.options.idleMs, CANCEL_TIMEOUT_MS);
        this.hear(await this.client.experimental.tasks.cancelTask(task.taskId, { timeout }));
      } catch (error) {
        this.log.warn(
          { taskId: task.taskId, err: this.options.hide(errorMessage(error)) },
          'could not cancel the task',
        );
      }
    }
    this.ended(stop.kind === 'user' ? 'cancelled by the user' : 'timed out');
    if (stop.kind === 'user') throw stop.reason;
    throw new McpError(ErrorCode.RequestTimeout, 'the task was quiet for too long and was cancelled');
  }

  /** A failed or cancelled task says so with the server's reason; any other error is the SDK's. */
  private failure(error: McpError): Error {
    const last = this.last;
    const reason = last?.statusMessage ? `: ${last.statusMessage}` : ' (no reason given)';
    if (last?.status === 'failed') {
      this.ended('failed');
      return new Error(`its task failed on the server${reason}`);
    }
    if (last?.status === 'cancelled') {
      this.ended('cancelled');
      return new Error(`its task was cancelled on the server${reason}`);
    }
    this.ended('error');
    return error;
  }

  private ended(outcome: string): void {
    const durationMs = Math.round(performance.now() - this.began);
    this.log.info({ taskId: this.task?.taskId, outcome, durationMs }, 'task ended');
  }
}

/**
 * Calls `tool` as a task and returns its result. Throws as `callTool` does: the user's abort
 * reason, an `McpError` (timeout, connection closed), or an error saying the task failed or
 * was cancelled on the server.
 */
export async function callToolAsTask(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  options: TaskCallOptions,
): Promise<CallToolResult> {
  options.signal?.throwIfAborted();
  return new TaskCall(client, tool, options).run(args);
}
