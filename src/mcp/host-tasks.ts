/**
 * The tasks of all the host's servers: those each ready server knows (`tasks/list`, where it
 * answers it) and those this session started. A server whose listing fails gives only the latter,
 * and the failure is logged. What a server says of a task loses the secrets its entry gives it.
 */
import { errorMessage } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import { withoutCredentials } from './host-servers.js';
import type { ManagedServer } from './managed-server.js';
import { listServerTasks, listsTasks, type TaskInfo } from './session-tasks.js';

export async function listHostTasks(servers: readonly ManagedServer[], log: Logger): Promise<TaskInfo[]> {
  const lists = await Promise.all(servers.map((server) => tasksOf(server, log)));
  return lists.flat();
}

async function tasksOf(server: ManagedServer, log: Logger): Promise<TaskInfo[]> {
  const client = server.readyClient();
  if (!client || !listsTasks(client)) return server.tasks.list();
  try {
    const tasks = await listServerTasks(client, server.tasks, server.name);
    return tasks.map(({ statusMessage, ...task }) => ({
      ...task,
      ...(statusMessage === undefined ? {} : { statusMessage: withoutCredentials(server, statusMessage) }),
    }));
  } catch (error) {
    log.warn({ server: server.name, err: withoutCredentials(server, errorMessage(error)) }, 'could not list tasks');
    return server.tasks.list();
  }
}
