/**
 * Tasks as a person sees them in the REPL (tmux, the built binary, the fake Ollama,
 * server-everything): a call of a task tool shows the task's status on its tool line while it
 * runs, Esc cancels it on the server, and `/tasks` lists the session's tasks with their states.
 */
import path from 'node:path';
import { describe, it } from 'vitest';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { useReplSession } from '../helpers/repl-session.js';
import { TmuxPane } from '../helpers/tmux.js';

const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const TOOL = 'simulate-research-query';
const research = (topic: string): string =>
  JSON.stringify({ action: 'use_tool', server: 'everything', tool: TOOL, arguments: { topic } });

describe.skipIf(!TmuxPane.available())('tasks in the REPL', () => {
  const repl = useReplSession({
    config: {
      mcpServers: {
        everything: { command: 'node', args: [EVERYTHING, 'stdio'], alwaysAllow: [TOOL] },
      },
    },
  });

  it('/tasks before any task says there is none', async () => {
    await repl.shows('ready');
    repl.pane.type('/tasks', 'Enter');
    await repl.shows('No tasks: no running server knows of any.');
  });

  it("a task's status shows on its tool line while it runs; /tasks then lists it, completed", async () => {
    repl.ollama.script(research('tide pools'), 'The research is done.');
    repl.pane.type('research tide pools', 'Enter');
    await repl.shows('working · Analyzing content...');
    await repl.shows('The research is done.');
    repl.pane.type('/tasks', 'Enter');
    await repl.shows(`everything  completed  ${TOOL}  created `);
  }, 30_000);

  it('Esc cancels the running task on the server: /tasks then lists it, cancelled', async () => {
    repl.ollama.script(research('kelp'));
    repl.pane.type('research kelp', 'Enter');
    await repl.shows(`everything.${TOOL}(topic="kelp")  working`);
    repl.pane.type('', 'Escape');
    // The turn ends once the call has: after the server has taken the cancel.
    await repl.shows('Cancelled.');
    repl.pane.type('/tasks', 'Enter');
    await repl.shows(`everything  cancelled  ${TOOL}  created `);
  }, 30_000);
});
