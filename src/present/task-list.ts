/** Tasks for people: `mcp-chat tasks` and the REPL's `/tasks`, two lines each, the server's words made inert. */
import { sanitizeForDisplay } from '../shared/terminal-text.js';

/** What a listing shows of a task (the host's `TaskInfo`). */
export interface TaskRow {
  server: string;
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  tool?: string;
}

/** A status message is one line here; a longer one is cut. */
const MAX_MESSAGE = 80;

const pad = (n: number): string => String(n).padStart(2, '0');

/** A server's timestamp in local time: the time alone today, the date too before. */
export function formatTime(iso: string, now: Date): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return sanitizeForDisplay(iso, 40);
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  if (date.toDateString() === now.toDateString()) return time;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}

/** Two lines: what and when, then the id and what the server last said (a line of the REPL is narrow). */
function taskLines(task: TaskRow, now: Date, widths: { server: number; status: number }): string[] {
  const status = task.status.replace('_', ' ');
  const what = task.tool ? `${sanitizeForDisplay(task.tool, 60)}  ` : '';
  const times = `created ${formatTime(task.createdAt, now)}, updated ${formatTime(task.lastUpdatedAt, now)}`;
  const message = task.statusMessage ? ` · ${sanitizeForDisplay(task.statusMessage, MAX_MESSAGE)}` : '';
  return [
    `  ${task.server.padEnd(widths.server)}  ${status.padEnd(widths.status)}  ${what}${times}`,
    `    ${sanitizeForDisplay(task.taskId, 80)}${message}`,
  ];
}

export function formatTaskList(tasks: TaskRow[], now: Date = new Date()): string {
  if (tasks.length === 0) return 'No tasks: no running server knows of any.';
  const widths = {
    server: Math.max(...tasks.map((task) => task.server.length)),
    status: Math.max(...tasks.map((task) => task.status.length)),
  };
  return ['Tasks:', ...tasks.flatMap((task) => taskLines(task, now, widths))].join('\n');
}
