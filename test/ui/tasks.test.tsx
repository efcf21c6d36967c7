/**
 * Tasks as a person sees them in the REPL (the chat wired as the program wires it,
 * server-everything over stdio, the fake Ollama): a call of a task tool shows the task's status on
 * its tool line while it runs, Esc cancels it on the server, and `/tasks` lists the session's tasks
 * with their states. Every frame drawn is kept, so a status that shows for a moment is still seen.
 */
import { stripVTControlCharacters } from 'node:util';
import { cleanup } from 'ink-testing-library';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING } from '../helpers/everything.js';
import { useLiveRepl } from './live-repl.js';
import { KEY, type RenderedApp } from './render-app.js';

const TOOL = 'simulate-research-query';
const research = (topic: string): string =>
  JSON.stringify({ action: 'use_tool', server: 'everything', tool: TOOL, arguments: { topic } });

/** What the tool line says in each stage of the research; which of them a poll sees is the clocks' business. */
const WORKING = /working · (Gathering sources|Analyzing content|Synthesizing findings|Generating report)\.\.\./;

/** Resolves once some frame drawn has matched `pattern`, however briefly. */
const drew = (app: RenderedApp, pattern: RegExp): Promise<void> =>
  app.waitUntil(() => expect(app.ui.frames.some((frame) => pattern.test(stripVTControlCharacters(frame)))).toBe(true));

afterEach(() => cleanup());

describe('tasks in the REPL', () => {
  const repl = useLiveRepl({
    config: {
      mcpServers: {
        everything: { command: 'node', args: [EVERYTHING, 'stdio'], alwaysAllow: [TOOL] },
      },
    },
  });
  beforeAll(async () => {
    await repl.open();
  });
  async function screen(): Promise<RenderedApp> {
    const app = await repl.newScreen();
    await app.waitForScreen(/everything ✓ \d+ {2}ready/);
    return app;
  }

  it('/tasks before any task says there is none', async () => {
    const app = await screen();
    app.send('/tasks');
    await app.waitForScreen('No tasks: no running server knows of any.');
  });

  it("a task's status shows on its tool line while it runs; /tasks then lists it, completed", async () => {
    const app = await screen();
    repl.ollama.script(research('tide pools'), 'The research is done.');
    app.send('research tide pools');
    await drew(app, WORKING);
    await app.waitForAnswer('The research is done.');
    app.send('/tasks');
    await app.waitForScreen(`everything  completed  ${TOOL}  created `);
  });

  it('Esc cancels the running task on the server: /tasks then lists it, cancelled', async () => {
    const app = await screen();
    repl.ollama.script(research('kelp'));
    app.send('research kelp');
    await app.waitForScreen(`everything.${TOOL}(topic="kelp")  working`);
    app.press(KEY.esc);
    // The turn ends once the call has: after the server has taken the cancel.
    await app.waitForScreen('Cancelled.');
    app.send('/tasks');
    await app.waitForScreen(`everything  cancelled  ${TOOL}  created `);
  });
});
