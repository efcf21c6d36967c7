/**
 * Benchmark 7, several calls in one reply: a model asks for three read-only calls at once to a
 * tool that takes a second, and the chatbot runs them together. Timed: the turn's tool phase,
 * from its first `tool-call` event to its last `tool-result`. Baseline, in the same run: the same
 * three calls through the same host, one after another. Target: well under 2 s (under 1.5 s).
 */
import path from 'node:path';
import type { TurnEvent } from '../src/vocabulary/types.js';
import type { StdioServerConfig } from '../src/config/types.js';
import { McpHost } from '../src/mcp/host.js';
import { createOllamaClient } from '../src/ollama/client.js';
import { ChatSession } from '../src/session/chat-session.js';
import { createLogger } from '../src/shared/log.js';
import { PACKAGE_ROOT } from '../src/shared/paths.js';
import { startFakeOllama, type FakeChatRequest, type FakeReplySpec } from '../test/fakes/fake-ollama.js';
import { MODEL } from './lib/fake-model.js';
import { check, row, benchmarkResult, type BenchmarkResult } from './lib/results.js';
import { summarize } from './lib/stats.js';
import type { Workspace } from './lib/workspace.js';

/** How long the tool takes: long against everything else in a turn, so the phase is the calls. */
const CALL_MS = 1_000;
const CALLS = 3;
const ROUNDS = 5;
const TARGET_MS = 1_500;

const SCRIPTED = path.join(PACKAGE_ROOT, 'test/fixtures/servers/scripted-server.mjs');
const server: StdioServerConfig = {
  kind: 'stdio',
  name: 'lab',
  command: process.execPath,
  args: [SCRIPTED, 'name=lab'],
  env: {},
  cwd: PACKAGE_ROOT,
  timeoutMs: 30_000,
  alwaysAllow: [],
  alwaysInclude: [],
  // Its `sleep` tool says it is read-only; trusted, so the chatbot may run it without asking, and together.
  trust: true,
  sampling: 'deny',
  elicitation: 'deny',
};

/** Three calls to `lab.sleep` for a user message, then an answer once their results are in. */
function threeSleeps(request: FakeChatRequest): FakeReplySpec {
  if (request.messages.at(-1)?.role === 'tool') return { text: 'Slept.' };
  const calls = Array.from({ length: CALLS }, () => ({ name: 'lab__sleep', arguments: { ms: CALL_MS } }));
  return { toolCalls: calls };
}

/** Milliseconds from the first tool-call event of a turn to its last tool-result. */
function toolPhase(events: { at: number; event: TurnEvent }[]): number {
  const starts = events.filter(({ event }) => event.type === 'tool-call').map(({ at }) => at);
  const ends = events.filter(({ event }) => event.type === 'tool-result').map(({ at }) => at);
  if (ends.length !== CALLS) throw new Error(`expected ${CALLS} results, got ${ends.length}`);
  return Math.max(...ends) - Math.min(...starts);
}

export async function benchParallelCalls(workspace: Workspace): Promise<BenchmarkResult> {
  const began = performance.now();
  const ollama = await startFakeOllama({
    models: [{ name: MODEL, capabilities: ['completion', 'tools'] }],
    fallbackReply: threeSleeps,
  });
  const log = createLogger({ level: 'info', file: path.join(workspace.dir, 'bench-parallel.log') });
  const host = new McpHost([server], { log });
  await host.start();
  const config = workspace.config(ollama.url);
  const session = new ChatSession({ config, log, debug: false }, host, createOllamaClient(config.ollama, log));
  const measured: number[] = [];
  const baseline: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const events: { at: number; event: TurnEvent }[] = [];
      for await (const event of session.runTurn(`sleep ${round}`)) events.push({ at: performance.now(), event });
      measured.push(toolPhase(events));
      const start = performance.now();
      for (let call = 0; call < CALLS; call++)
        await host.callTool({ server: 'lab', tool: 'sleep', arguments: { ms: CALL_MS } });
      baseline.push(performance.now() - start);
    }
  } finally {
    await host.close();
    await ollama.close();
  }
  const phase = summarize(measured);
  const rows = [
    row({
      name: `${CALLS} read-only calls of ${CALL_MS} ms in one reply: the tool phase`,
      unit: 'ms',
      measured: phase,
      baselineLabel: 'the same calls in sequence',
      baseline: summarize(baseline),
      checks: () => [check('median tool phase', Math.round(phase.median), '<', TARGET_MS, 'ms')],
    }),
  ];
  return benchmarkResult(
    {
      id: 'parallel-calls',
      title: 'Several calls in one reply',
      howMeasured:
        `In one process, the chatbot (\`ChatSession\` over the real host and the fake Ollama) answers a message for which ` +
        `the model asks for ${CALLS} read-only calls at once to a stdio server's \`sleep\` tool that takes ${CALL_MS} ms. ` +
        `Timed: from the turn's first \`tool-call\` event to its last \`tool-result\`. Baseline: the same ${CALLS} calls ` +
        'through the same host, one after another. The two alternate round by round.',
      warmup: "none (each call is dominated by the tool's own second)",
      runs: `${ROUNDS} rounds`,
    },
    rows,
    began,
  );
}
