/**
 * Tool calls run as MCP tasks, against the reference peer (server-everything's
 * `simulate-research-query`, a task-only tool), over stdio and Streamable HTTP: the status
 * messages reach the progress line, the result comes back, an abort cancels the task on the
 * server, the listing shows the session's tasks, and `input_required` reaches the client's
 * elicitation handler through `tasks/result`. The scenarios wait on the server's clock, not on a
 * core, and each has a host and a server of its own: they run at the same time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it, vi, type TestContext } from 'vitest';
import type { FormAnswer, FormRequest, ServerRequestHandler } from '../../src/vocabulary/server-requests.js';
import type { ToolProgress } from '../../src/vocabulary/types.js';
import type { ServerConfig } from '../../src/config/types.js';
import { McpHost } from '../../src/mcp/host.js';
import { createLogger } from '../../src/shared/log.js';
import { everythingTransports } from '../helpers/everything.js';
import { killAll } from '../helpers/spawn-server.js';

/** Shorter than the research (four stages of a second): the task must outlive it by answering its polls. */
const CALL_TIMEOUT_MS = 1_500;
const TOOL = 'simulate-research-query';

/** The research's stages, in order; each status message names the one it is in. */
const STAGES = ['Gathering sources', 'Analyzing content', 'Synthesizing findings', 'Generating report'];
const stageOf = (message = ''): number => STAGES.findIndex((stage) => message.endsWith(` · ${stage}...`));

let dir: string;

beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-everything-tasks-')));
});
afterAll(async () => {
  await killAll();
  fs.rmSync(dir, { recursive: true, force: true });
});

const transports = everythingTransports(CALL_TIMEOUT_MS);

/** Answers every form with `answer`, keeping what it was asked. */
function formAnswerer(answer: FormAnswer): { handler: ServerRequestHandler; asked: FormRequest[] } {
  const asked: FormRequest[] = [];
  const handler: ServerRequestHandler = {
    sample: () => Promise.reject(new Error('no sampling in this test')),
    fillForm: (request) => {
      asked.push(request);
      return Promise.resolve(answer);
    },
    visitUrl: () => Promise.resolve('decline'),
    urlCompleted: () => undefined,
  };
  return { handler, asked };
}

/** A host of the test's own, closed when the test is over. */
async function startHost(
  test: TestContext,
  config: ServerConfig,
  logFile: string,
  serverRequests?: ServerRequestHandler,
) {
  const host = new McpHost([config], {
    log: createLogger({ level: 'debug', file: logFile }),
    ...(serverRequests ? { serverRequests } : {}),
  });
  test.onTestFinished(() => host.close());
  await host.start();
  return host;
}

const research = (args: Record<string, unknown>) => ({ server: 'everything', tool: TOOL, arguments: args });
const messages = (reports: ToolProgress[]) => reports.map((report) => report.message);

describe.concurrent.each(transports)('tasks of server-everything over %s', (transport, config) => {
  it('a task-only tool runs as a task: its status messages reach onProgress, its result comes back, each step is logged', async (test) => {
    const { expect } = test;
    const logFile = path.join(dir, `${transport}-run.log`);
    const host = await startHost(test, await config(), logFile);
    const reports: ToolProgress[] = [];
    const result = await host.callTool(research({ topic: 'tide pools' }), undefined, (report) => reports.push(report));

    expect(result).toMatchObject({ isError: false });
    expect(result.forModel).toContain('# Research Report: tide pools');
    // Polled every second, as the server asks, while each stage lasts a second: which stages a poll
    // falls in is the clocks' business, but what is heard is the stages' words, numberless, in order.
    const heard = messages(reports);
    expect(heard.some((message) => message?.startsWith('working · '))).toBe(true);
    const stages = heard.map(stageOf);
    expect(stages).not.toContain(-1);
    expect(stages).toEqual([...stages].sort((a, b) => a - b));
    expect(reports.every((report) => report.progress === 0 && report.total === undefined)).toBe(true);
    // Four seconds of work against a 1.5 s timeout: a task that answers its polls is alive.
    expect(result.durationMs).toBeGreaterThan(CALL_TIMEOUT_MS);

    const [task] = await host.listTasks();
    expect(task).toMatchObject({ server: 'everything', tool: TOOL, status: 'completed' });
    const log = fs.readFileSync(logFile, 'utf8');
    for (const step of ['task created', 'task status', 'task ended']) {
      expect(log).toMatch(
        new RegExp(`"taskId":"${task?.taskId}".*"msg":"${step}"|"msg":"${step}".*"taskId":"${task?.taskId}"`),
      );
    }
  });

  it('an abort cancels the task on the server, and the call ends as cancelled', async (test) => {
    const { expect } = test;
    const host = await startHost(test, await config(), path.join(dir, `${transport}-abort.log`));
    const reports: ToolProgress[] = [];
    const controller = new AbortController();
    const pending = host.callTool(research({ topic: 'kelp forests' }), controller.signal, (report) =>
      reports.push(report),
    );
    await vi.waitFor(() => expect(reports.length).toBeGreaterThan(0), { timeout: 30_000, interval: 20 });
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ isError: true, forModel: `everything.${TOOL} was cancelled by the user.` });
    // The server's own listing (`tasks/list`) says so, and the task stays cancelled: it does not complete.
    const [task] = await host.listTasks();
    expect(task).toMatchObject({ status: 'cancelled', tool: TOOL });
    expect(Date.parse(task?.lastUpdatedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(task?.createdAt ?? ''));
  });

  it('the listing has every task of the session, each with its state', async (test) => {
    const { expect } = test;
    const host = await startHost(test, await config(), path.join(dir, `${transport}-list.log`));
    expect(await host.listTasks()).toEqual([]);
    const controller = new AbortController();
    const first = host.callTool(research({ topic: 'reefs' }), controller.signal);
    const second = host.callTool(research({ topic: 'dunes' }));
    await vi.waitFor(async () => expect(await host.listTasks()).toHaveLength(2), { timeout: 30_000, interval: 50 });
    controller.abort();
    await Promise.all([first, second]);
    const tasks = await host.listTasks();
    expect(tasks.map((task) => task.status).sort()).toEqual(['cancelled', 'completed']);
    for (const task of tasks) {
      expect(task).toMatchObject({ server: 'everything', tool: TOOL, taskId: expect.any(String) });
      expect(Number.isNaN(Date.parse(task.createdAt))).toBe(false);
    }
  });

  it('input_required: the server asks through tasks/result, the elicitation handler answers, the task uses it', async (test) => {
    const { expect } = test;
    const { handler, asked } = formAnswerer({ action: 'accept', content: { interpretation: 'historical' } });
    const host = await startHost(test, await config(), path.join(dir, `${transport}-input.log`), handler);
    const reports: ToolProgress[] = [];
    const result = await host.callTool(research({ topic: 'tides', ambiguous: true }), undefined, (report) =>
      reports.push(report),
    );
    expect(asked).toEqual([
      expect.objectContaining({
        server: 'everything',
        message: expect.stringContaining('The research query "tides" could have multiple interpretations'),
      }),
    ]);
    expect(messages(reports)).toContain(
      'input required · Found multiple interpretations for "tides". Requesting clarification...',
    );
    expect(result).toMatchObject({ isError: false });
    expect(result.forModel).toContain('# Research Report: tides (historical)');
  });
});
