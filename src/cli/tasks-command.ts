/**
 * `mcp-chat tasks [--json]`: start the configured servers, list the tasks each knows
 * (`tasks/list`, where a server answers it), exit. A server started for the command (stdio)
 * knows only its own, so this is mostly for remote servers that keep tasks between sessions.
 * `--json` prints `[{ server, taskId, status, statusMessage?, createdAt, lastUpdatedAt, tool? }]`.
 */
import { formatTaskList } from '../present/task-list.js';
import type { Runtime } from '../session/runtime.js';
import { withHost } from '../session/with-host.js';
import { ExitCode } from '../shared/errors.js';
import { jsonForTerminal } from '../shared/terminal-text.js';
import type { Output } from './output.js';

export async function tasksCommand(runtime: Runtime, output: Output, options: { json?: boolean }): Promise<number> {
  const tasks = await withHost(runtime, output, (host) => host.listTasks());
  output.stdout(options.json ? jsonForTerminal(tasks) : formatTaskList(tasks));
  return ExitCode.ok;
}
