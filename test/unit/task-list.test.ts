/** The task listing of `mcp-chat tasks` and `/tasks`: two lines a task, times in local time, the server's words made inert. */
import { describe, expect, it } from 'vitest';
import { formatTaskList, formatTime, type TaskRow } from '../../src/present/task-list.js';

const now = new Date(2026, 2, 14, 15, 0, 0);
const at = (hours: number, minutes: number, day = 14): string =>
  new Date(2026, 2, day, hours, minutes, 5).toISOString();

describe('formatTaskList', () => {
  it('two lines a task: server, status, tool when known and times; then the id and the status message', () => {
    const tasks: TaskRow[] = [
      {
        server: 'everything',
        taskId: 't-1',
        status: 'input_required',
        statusMessage: 'Which python?',
        createdAt: at(14, 1),
        lastUpdatedAt: at(14, 2),
        tool: 'simulate-research-query',
      },
      { server: 'keeper', taskId: 't-2', status: 'completed', createdAt: at(9, 30, 13), lastUpdatedAt: at(9, 31, 13) },
    ];
    expect(formatTaskList(tasks, now).split('\n')).toEqual([
      'Tasks:',
      '  everything  input required  simulate-research-query  created 14:01:05, updated 14:02:05',
      '    t-1 · Which python?',
      '  keeper      completed       created 2026-03-13 09:30:05, updated 2026-03-13 09:31:05',
      '    t-2',
    ]);
  });

  it('none: says so', () => {
    expect(formatTaskList([], now)).toBe('No tasks: no running server knows of any.');
  });

  it("a server's hostile message, id or time is one inert line", () => {
    const line = formatTaskList(
      [
        {
          server: 's',
          taskId: 'id\u001b[2J',
          status: 'working',
          statusMessage: `\u001b]0;pwned\u0007next\nline ${'x'.repeat(200)}`,
          createdAt: 'not a time\u001b[31m',
          lastUpdatedAt: at(14, 0),
        },
      ],
      now,
    );
    expect(line).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(line.split('\n')).toHaveLength(3);
    expect(line.length).toBeLessThan(220);
  });

  it('a time of another day has its date', () => {
    expect(formatTime(at(23, 59, 13), now)).toBe('2026-03-13 23:59:05');
    expect(formatTime(at(0, 0), now)).toBe('00:00:05');
  });
});
