/**
 * The tasks a server knows (`tasks/list`) and the ones this session started there, as one
 * listing for `mcp-chat tasks` and `/tasks`. What a server says of a task is its own words:
 * the caller hides the entry's secrets in it before anyone sees it.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Task } from '@modelcontextprotocol/sdk/types.js';
import { allPages } from './paginate.js';

export type TaskStatus = Task['status'];

export interface TaskInfo {
  server: string;
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601, as the server gives them. */
  createdAt: string;
  lastUpdatedAt: string;
  /** The tool the task runs, when this session started it (`tasks/list` does not say). */
  tool?: string;
}

/** Tasks remembered per server: a long session keeps the latest, not all. */
const MAX_REMEMBERED = 100;

/** A status no further status follows: the task is over. */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

function toInfo(server: string, task: Task, tool?: string): TaskInfo {
  return {
    server,
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ...(tool === undefined ? {} : { tool }),
  };
}

/** The tasks this session started on one server, with the last state heard of each. */
export class SessionTasks {
  private readonly tasks = new Map<string, TaskInfo>();

  constructor(private readonly server: string) {}

  /** Records what was last heard of a task (`statusMessage` already without secrets). */
  heard(task: Task, tool: string): void {
    this.tasks.delete(task.taskId);
    this.tasks.set(task.taskId, toInfo(this.server, task, tool));
    const oldest = this.tasks.keys().next();
    if (this.tasks.size > MAX_REMEMBERED && !oldest.done) this.tasks.delete(oldest.value);
  }

  list(): TaskInfo[] {
    return [...this.tasks.values()];
  }

  toolOf(taskId: string): string | undefined {
    return this.tasks.get(taskId)?.tool;
  }
}

/** Whether the server answers `tasks/list`. */
export function listsTasks(client: Client): boolean {
  return client.getServerCapabilities()?.tasks?.list !== undefined;
}

/**
 * Every task the server lists, named with its tool where this session started it; the tasks
 * this session started that the listing leaves out (expired there, or another session's) follow.
 */
export async function listServerTasks(client: Client, known: SessionTasks, server: string): Promise<TaskInfo[]> {
  const listed = await allPages(async (cursor) => {
    const page = await client.experimental.tasks.listTasks(cursor);
    return { items: page.tasks, nextCursor: page.nextCursor };
  });
  const ids = new Set(listed.map((task) => task.taskId));
  return [
    ...listed.map((task) => toInfo(server, task, known.toolOf(task.taskId))),
    ...known.list().filter((task) => !ids.has(task.taskId)),
  ];
}
