/**
 * The ends of a task call that the reference peer does not play, against a real SDK server over
 * the in-memory transport: a task that fails or is cancelled on the server, a server that goes
 * quiet, a cancel that comes before the task exists, and progress reports beside the status.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type Progress, type Task } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionTasks } from '../../src/mcp/session-tasks.js';
import { callToolAsTask, runsAsTask, statusText, type TaskCallOptions } from '../../src/mcp/task-call.js';
import { createLogger } from '../../src/shared/log.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

/** A store that leaves one `getTask` unanswered when told to, as a hung server does, and tells when it is next asked. */
class QuietableStore extends InMemoryTaskStore {
  /** The next `getTask` (the client's next poll) is never answered. */
  quiet = false;
  private asked: (() => void)[] = [];

  override getTask(taskId: string, sessionId?: string): Promise<Task | null> {
    for (const resolve of this.asked.splice(0)) resolve();
    if (!this.quiet) return super.getTask(taskId, sessionId);
    this.quiet = false;
    return new Promise(() => undefined);
  }

  /** Resolves at the next `getTask`: the client's next poll, when nothing else is asking. */
  nextPoll(): Promise<void> {
    return new Promise((resolve) => this.asked.push(resolve));
  }
}

interface Peer {
  client: Client;
  store: QuietableStore;
  /** Opens the gate the `gated` tool's creation waits behind. */
  openGate: () => void;
}

const peers: Client[] = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((client) => client.close()));
});

const POLL_MS = 20;
const TASK_ONLY = { taskSupport: 'required' } as const;

function register(
  server: McpServer,
  name: string,
  work: (taskId: string, store: QuietableStore, progress: (p: Progress) => Promise<void>) => Promise<void>,
  store: QuietableStore,
  gate: Promise<void> = Promise.resolve(),
): void {
  server.experimental.tasks.registerToolTask(
    name,
    { execution: TASK_ONLY },
    {
      createTask: async (extra) => {
        await gate;
        const task = await extra.taskStore.createTask({ pollInterval: POLL_MS });
        const token = extra._meta?.progressToken;
        const progress = async (p: Progress): Promise<void> => {
          if (token !== undefined)
            await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...p } });
        };
        void work(task.taskId, store, progress);
        return { task };
      },
      getTask: async (extra) => (await extra.taskStore.getTask(extra.taskId)) as Task,
      getTaskResult: async (extra) => (await extra.taskStore.getTaskResult(extra.taskId)) as never,
    },
  );
}

async function peer(): Promise<Peer> {
  const store = new QuietableStore();
  const server = new McpServer(
    { name: 'tasks', version: '1.0.0' },
    { capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore: store },
  );
  let openGate = (): void => undefined;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  register(server, 'fails', (id, s) => s.updateTaskStatus(id, 'failed', 'the index is gone (key sekrit)'), store);
  register(server, 'stopped', (id, s) => s.updateTaskStatus(id, 'cancelled', 'an operator stopped it'), store);
  register(server, 'forever', async () => undefined, store);
  register(server, 'gated', async () => undefined, store, gate);
  register(
    server,
    'counts',
    async (id, s, progress) => {
      await s.updateTaskStatus(id, 'working', 'counting');
      // Once the client has polled, it has heard the status the numbers go with.
      await s.nextPoll();
      await progress({ progress: 1, total: 2, message: 'one of two' });
      await s.storeTaskResult(id, 'completed', { content: [{ type: 'text', text: 'counted' }] });
    },
    store,
  );
  register(
    server,
    'patient',
    async (id, s) => {
      // Polled more often than Node's listener limit (10) before the result.
      for (let poll = 0; poll < 15; poll += 1) await s.nextPoll();
      await s.storeTaskResult(id, 'completed', { content: [{ type: 'text', text: 'done at last' }] });
    },
    store,
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'task-call-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  peers.push(client);
  return { client, store, openGate };
}

let heard: Progress[] = [];
afterEach(() => {
  heard = [];
});

function options(overrides: Partial<TaskCallOptions> = {}): TaskCallOptions {
  return {
    idleMs: 5_000,
    ceilingMs: 10_000,
    onProgress: (progress) => heard.push(progress),
    hide: (text) => text.replaceAll('sekrit', '***'),
    log: createLogger({ level: 'silent', file: null }),
    tasks: new SessionTasks('tasks'),
    ...overrides,
  };
}

describe('callToolAsTask', () => {
  it('a task that fails on the server is an error with its reason, without the secrets the entry gives it', async () => {
    const { client } = await peer();
    const error = await callToolAsTask(client, 'fails', {}, options()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('its task failed on the server: the index is gone (key ***)');
  });

  it('a task cancelled on the server (not by us) says so, with its reason', async () => {
    const { client } = await peer();
    await expect(callToolAsTask(client, 'stopped', {}, options())).rejects.toThrow(
      'its task was cancelled on the server: an operator stopped it',
    );
  });

  it('a poll the server never answers times the call out after the idle time, and the task is cancelled', async () => {
    const { client, store } = await peer();
    const tasks = new SessionTasks('tasks');
    const call = callToolAsTask(client, 'forever', {}, options({ idleMs: 300, tasks }));
    await vi.waitFor(() => expect(tasks.list()).toHaveLength(1), CONDITION_WAIT);
    store.quiet = true;
    const error = await call.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.RequestTimeout);
    const [task] = tasks.list();
    expect(await store.getTask(task?.taskId ?? '')).toMatchObject({ status: 'cancelled' });
  });

  it('a cancel before the task exists waits for its id, then cancels it on the server', async () => {
    const { client, store, openGate } = await peer();
    const controller = new AbortController();
    const tasks = new SessionTasks('tasks');
    const call = callToolAsTask(client, 'gated', {}, options({ signal: controller.signal, tasks }));
    controller.abort(new Error('stopped by the user'));
    openGate();
    await expect(call).rejects.toThrow('stopped by the user');
    const { tasks: onServer } = await store.listTasks();
    expect(onServer.map((task) => task.status)).toEqual(['cancelled']);
    expect(tasks.list().map((task) => task.status)).toEqual(['cancelled']);
  });

  it('polls a long task without piling listeners on one signal (no MaxListenersExceededWarning)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const { client } = await peer();
      const result = await callToolAsTask(client, 'patient', {}, options());
      expect(result.content).toEqual([{ type: 'text', text: 'done at last' }]);
      // A warning is emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it("the server's progress numbers go with the status message on the line", async () => {
    const { client } = await peer();
    const result = await callToolAsTask(client, 'counts', {}, options());
    expect(result.content).toEqual([{ type: 'text', text: 'counted' }]);
    expect(heard).toContainEqual({ progress: 1, total: 2, message: 'working · counting · one of two' });
  });

  it('runs as a task only a tool that supports tasks, on a server that takes task-augmented calls', async () => {
    const { client } = await peer();
    const tool = (taskSupport?: 'optional' | 'required' | 'forbidden') => ({
      name: 't',
      inputSchema: { type: 'object' as const },
      ...(taskSupport ? { execution: { taskSupport } } : {}),
    });
    expect(runsAsTask(client, tool('required'))).toBe(true);
    expect(runsAsTask(client, tool('optional'))).toBe(true);
    expect(runsAsTask(client, tool('forbidden'))).toBe(false);
    expect(runsAsTask(client, tool())).toBe(false);
    expect(runsAsTask(client, undefined)).toBe(false);
  });

  it('a status reads as its word and the server message', () => {
    expect(statusText({ status: 'input_required', statusMessage: 'Which one?' })).toBe('input required · Which one?');
    expect(statusText({ status: 'working' })).toBe('working');
  });
});
