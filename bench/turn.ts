/**
 * Benchmark 3, turn overhead: one `ask` turn with one tool call against the fake Ollama
 * answering at once, against the same HTTP and MCP calls made by hand. Two rows: the whole
 * `mcp-chat ask` process against a by-hand script process, and the turn alone inside one
 * process (mcp-chat's orchestrator against the by-hand turn). Targets: ratio <= 1.2 for the
 * whole process, <= 1.1 for the turn alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildSystemPrompt } from '../src/engine/system-prompt.js';
import type { ToolSpec } from '../src/vocabulary/types.js';
import type { AppConfig } from '../src/config/types.js';
import { createOllamaClient } from '../src/ollama/client.js';
import { ChatSession } from '../src/session/chat-session.js';
import type { AskPlan } from './baseline/ask-by-hand.js';
import { httpFetch } from './baseline/http-fetch.js';
import type { ByHandFetch } from './baseline/ollama-by-hand.js';
import { turnByHand, type TurnPlan } from './baseline/turn-by-hand.js';
import { connectBare, resultText, type BareConnection } from './lib/bare-client.js';
import { answerFor, MODEL, startToolCallingOllama } from './lib/fake-model.js';
import { alternate, pooled, type Paired, type Rounds } from './lib/harness.js';
import { assertSucceeded, timeNode } from './lib/processes.js';
import { check, row, benchmarkResult, type BenchmarkResult, type Row } from './lib/results.js';
import { startHost, type StartedHost } from './lib/started-host.js';
import { roundTo, summarize } from './lib/stats.js';
import { BASELINE_DIR, CLI, type Workspace } from './lib/workspace.js';

const PROCESS_ROUNDS: Rounds = { warmup: 2, runs: 10 };
/** Inside the process: pairs of fresh servers, pooled (two servers started alike differ in speed; see tool-calls.ts). */
const TURN_PAIRS = 3;
const TURN_ROUNDS: Rounds = { warmup: 20, runs: 100 };
const TARGET_RATIO = 1.2;
const TURN_TARGET_RATIO = 1.1;
const PROMPT = 'What is 2+2?';
const ANSWER = answerFor(PROMPT, '4');

function planFor(ollamaUrl: string, tools: ToolSpec[], workspace: Workspace): TurnPlan {
  const { numCtx, options } = workspace.config(ollamaUrl).ollama;
  const definitions = tools.map((tool) => ({
    type: 'function',
    function: { name: `${tool.server}__${tool.name}`, description: tool.description, parameters: tool.inputSchema },
  }));
  return {
    ollamaUrl,
    model: MODEL,
    system: buildSystemPrompt(tools, 'native'),
    prompt: PROMPT,
    tools: definitions,
    options: { num_ctx: numCtx, ...options },
  };
}

function expectAnswer(answer: string, what: string): void {
  if (answer.trim() !== ANSWER)
    throw new Error(`${what} answered ${JSON.stringify(answer)}, not ${JSON.stringify(ANSWER)}`);
}

/**
 * The turn as `ask` runs it: a fresh model client and chatbot, configured as `ask` configures
 * them. The configuration is read once beforehand, as `ask` reads it at start.
 */
async function orchestratedTurn(started: StartedHost, config: AppConfig): Promise<number[]> {
  const began = performance.now();
  const { host, log } = started;
  const chatbot = new ChatSession({ config, log, debug: false }, host, createOllamaClient(config.ollama, log));
  let answer = '';
  for await (const event of chatbot.runTurn(PROMPT)) if (event.type === 'final') answer = event.answer;
  const ms = performance.now() - began;
  expectAnswer(answer, 'the orchestrated turn');
  return [ms];
}

/** `send`: the by-hand requests' transport; `fetch` when not given. */
async function handTurn(plan: TurnPlan, calculator: BareConnection, send?: ByHandFetch): Promise<number[]> {
  const began = performance.now();
  const answer = await turnByHand(
    plan,
    async (_server, tool, args) => resultText(await calculator.client.callTool({ name: tool, arguments: args })),
    send,
  );
  const ms = performance.now() - began;
  expectAnswer(answer, 'the by-hand turn');
  return [ms];
}

interface TurnSamples {
  /** Against the by-hand turn with `fetch`: the row's baseline. */
  againstFetch: Paired<number>;
  /** Against the by-hand turn over `node:http`, the client's own transport: in the row's details. */
  againstHttp: Paired<number>;
}

/** One pair of fresh servers: mcp-chat's host and the by-hand turn's own calculator, in turns. */
async function turnPair(workspace: Workspace, ollamaUrl: string): Promise<TurnSamples> {
  const started = await startHost(workspace, ollamaUrl);
  const calculator = await connectBare(workspace.entry('calculator'));
  try {
    const plan = planFor(ollamaUrl, started.host.listTools(), workspace);
    const config = workspace.config(ollamaUrl);
    const ours = (): Promise<number[]> => orchestratedTurn(started, config);
    const againstFetch = await alternate(TURN_ROUNDS, ours, () => handTurn(plan, calculator));
    const againstHttp = await alternate(TURN_ROUNDS, ours, () => handTurn(plan, calculator, httpFetch));
    return { againstFetch, againstHttp };
  } finally {
    await calculator.close();
    await started.host.close();
  }
}

async function turnRow(workspace: Workspace, ollamaUrl: string): Promise<Row> {
  const pairs: TurnSamples[] = [];
  for (let index = 0; index < TURN_PAIRS; index++) pairs.push(await turnPair(workspace, ollamaUrl));
  const samples = pooled(pairs.map((pair) => pair.againstFetch));
  const overHttp = pooled(pairs.map((pair) => pair.againstHttp));
  const ours = summarize(overHttp.measured).median;
  const byHandOverHttp = summarize(overHttp.baseline).median;
  return row({
    name: 'one turn inside the process',
    unit: 'ms',
    measured: summarize(samples.measured),
    baselineLabel: 'the same requests and call by hand',
    baseline: summarize(samples.baseline),
    checks: (ratio) => [check('ratio', ratio, '<=', TURN_TARGET_RATIO)],
    details: {
      "by hand over node:http (the client's transport), median ms": roundTo(byHandOverHttp, 2),
      'ours beside it, median ms': roundTo(ours, 2),
      'ratio to the by-hand turn over node:http': roundTo(ours / byHandOverHttp, 2),
    },
  });
}

async function processRow(workspace: Workspace, ollamaUrl: string, plan: TurnPlan): Promise<Row> {
  const askPlan: AskPlan = { ...plan, servers: workspace.entries };
  const planPath = path.join(workspace.dir, 'ask-plan.json');
  fs.writeFileSync(planPath, JSON.stringify(askPlan));
  const options = { cwd: workspace.dir, env: workspace.env(ollamaUrl) };
  const run = async (args: string[], what: string): Promise<number[]> => {
    const finished = assertSucceeded(await timeNode(args, options), what);
    expectAnswer(finished.stdout, what);
    return [finished.ms];
  };
  const samples = await alternate(
    PROCESS_ROUNDS,
    () => run([CLI, '--config', workspace.configPath, 'ask', PROMPT], 'mcp-chat ask'),
    () => run([path.join(BASELINE_DIR, 'ask-by-hand.js'), planPath], 'ask-by-hand'),
  );
  return row({
    name: '`mcp-chat ask`, whole process',
    unit: 'ms',
    measured: summarize(samples.measured),
    baselineLabel: 'by-hand script process, same calls',
    baseline: summarize(samples.baseline),
    checks: (ratio) => [check('ratio', ratio, '<=', TARGET_RATIO)],
  });
}

export async function benchTurn(workspace: Workspace): Promise<BenchmarkResult> {
  const began = performance.now();
  const ollama = await startToolCallingOllama();
  try {
    const inProcess = await turnRow(workspace, ollama.url);
    const { host } = await startHost(workspace, ollama.url);
    const plan = planFor(ollama.url, host.listTools(), workspace);
    await host.close();
    const whole = await processRow(workspace, ollama.url, plan);
    const rows = [whole, inProcess];
    return benchmarkResult(
      {
        id: 'turn',
        title: 'Turn overhead',
        howMeasured:
          'The fake Ollama (test/fakes) answers every request at once: one native `calculator__evaluate` call, then the answer. ' +
          'Whole process: `node dist/src/cli.js ask "What is 2+2?"` from spawn to exit (start-up of the three servers, Ollama ' +
          'checks, the turn, shutdown) against `bench/baseline/ask-by-hand.ts`, a script that makes the same HTTP requests ' +
          'and MCP calls with `fetch` and bare SDK clients, bundled by esbuild as mcp-chat is. Inside the process: `MCPChatbot.runTurn` with a fresh model client ' +
          '(as `ask` has) against the by-hand turn (`/api/show`, two streamed `/api/chat` requests with identical bodies, one ' +
          `\`tools/call\`), servers already running, in ${TURN_PAIRS} pairs of fresh servers whose samples are pooled. ` +
          "The by-hand turn uses `fetch`, as a script would; mcp-chat's client sends over `node:http`, so the same turns are " +
          'also alternated with the by-hand turn over `node:http` (bench/baseline/http-fetch.ts), reported in the details. ' +
          'Every answer is checked.',
        warmup: `${PROCESS_ROUNDS.warmup} processes / ${TURN_ROUNDS.warmup} turns a side in each pair`,
        runs: `${PROCESS_ROUNDS.runs} processes / ${TURN_PAIRS * TURN_ROUNDS.runs} turns a side, against each by-hand turn`,
      },
      rows,
      began,
    );
  } finally {
    await ollama.close();
  }
}
