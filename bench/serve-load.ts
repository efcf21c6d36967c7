/**
 * Benchmark: `mcp-chat serve` under load. 50 WebSocket clients on 10 sessions (5 each), the
 * scripted model, every session running its turns one after another while the sessions run at
 * once; every other turn calls the calculator. Reported: turns per second, time to first text
 * (sent message to the first `text` chunk at the sender), the server's memory, and whether every
 * client of a session got each turn's answer exactly once, whole and in order. Baseline: the same
 * turns' time to first text on one session with one client, before the load.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startServe, WsClient, sessionIdOf, type ServeProcess } from '../test/helpers/serve-process.js';
import { expectedAnswer, PROMPTS, type PromptKind } from './lib/model/script.js';
import { ScriptedModel } from './lib/model/server.js';
import { rssMb } from './lib/processes.js';
import { benchmarkResult, check, row, type BenchmarkResult } from './lib/results.js';
import { roundTo, summarize } from './lib/stats.js';
import { CLI, type Workspace } from './lib/workspace.js';

const SESSIONS = 10;
const CLIENTS_PER_SESSION = 5;
const TURNS_PER_SESSION = 30;
const BASELINE_TURNS = 20;
/** Turns of each session timed apart: one of each kind, while its servers start. */
const WARM_TURNS = 2;
/** Time to first text a person still reads as immediate, even with 50 clients on two cores. */
const TARGET_P99_FIRST_TEXT_MS = 1_000;

interface TurnOutcome {
  firstTextMs: number;
  /** Clients whose text for the turn was not the answer exactly once. */
  wrong: number;
}

const kindOf = (turn: number): PromptKind => (turn % 2 === 0 ? 'answer' : 'one-call');

/** One turn, sent by `clients[turn % n]`: timed to its first chunk, checked at every client. */
async function turn(clients: WsClient[], tag: number, index: number): Promise<TurnOutcome> {
  const sender = clients[index % clients.length] as WsClient;
  const from = clients.map((client) => client.received.length);
  const kind = kindOf(index);
  const began = performance.now();
  sender.send({ type: 'message', payload: { text: `${PROMPTS[kind].text} (#${tag})` } });
  await sender.waitFor((m) => m.type === 'text', from[clients.indexOf(sender)]);
  const firstTextMs = performance.now() - began;
  await Promise.all(clients.map((client, n) => client.turnOver(from[n])));
  const wrong = clients.filter((client, n) => client.text(from[n]) !== expectedAnswer(kind, tag)).length;
  return { firstTextMs, wrong };
}

/** A session's turns: `start`, its first ones (one of each kind, its servers starting), then `turns` more. */
interface SessionRun {
  start: TurnOutcome[];
  turns: TurnOutcome[];
}

async function session(serve: ServeProcess, clients: number, first: number, turns: number): Promise<SessionRun> {
  const opener = await WsClient.open(serve);
  await opener.waitFor((m) => m.type === 'history');
  const joined = await Promise.all(
    Array.from({ length: clients - 1 }, () => WsClient.open(serve, { session: sessionIdOf(opener) })),
  );
  const all = [opener, ...joined];
  await Promise.all(joined.map((client) => client.waitFor((m) => m.type === 'history')));
  const outcomes: TurnOutcome[] = [];
  try {
    // The session's first turns wait for its servers, then for the calculator's evaluator, to start: timed apart.
    for (let index = 0; index < turns + WARM_TURNS; index++) outcomes.push(await turn(all, first + index, index));
  } finally {
    all.forEach((client) => client.close());
  }
  return { start: outcomes.slice(0, WARM_TURNS), turns: outcomes.slice(WARM_TURNS) };
}

function serveConfig(workspace: Workspace): string {
  // The calculator alone: each session runs its own servers, and the rows time the server, not those.
  const config = JSON.parse(fs.readFileSync(workspace.configPath, 'utf8')) as { mcpServers: Record<string, unknown> };
  const file = path.join(workspace.dir, 'serve-load-config.json');
  fs.writeFileSync(file, JSON.stringify({ ...config, mcpServers: { calculator: config.mcpServers.calculator } }));
  return file;
}

export async function benchServeLoad(workspace: Workspace): Promise<BenchmarkResult> {
  const began = performance.now();
  const model = await ScriptedModel.start({ model: 'llama3.2' });
  const env = { ...workspace.env(model.url), XDG_STATE_HOME: path.join(workspace.dir, 'serve-state') };
  const serve = await startServe(['--config', serveConfig(workspace)], env, workspace.dir, CLI);
  try {
    const baseline = await session(serve, 1, 0, BASELINE_TURNS);
    const loadBegan = performance.now();
    const runs = await Promise.all(
      Array.from({ length: SESSIONS }, (_, n) =>
        session(serve, CLIENTS_PER_SESSION, 1_000 * (n + 1), TURNS_PER_SESSION),
      ),
    );
    const seconds = (performance.now() - loadBegan) / 1000;
    const memoryMb = rssMb(serve.child.pid ?? 0);
    const loaded = runs.flatMap((run) => run.turns);
    const warm = runs.flatMap((run) => run.start);
    const starts = summarize(warm.map((outcome) => outcome.firstTextMs));
    const wrong = [...loaded, ...warm].reduce((sum, outcome) => sum + outcome.wrong, 0);
    const measured = summarize(loaded.map((outcome) => outcome.firstTextMs));
    const result = row({
      name: `time to first text, ${SESSIONS * CLIENTS_PER_SESSION} clients on ${SESSIONS} sessions`,
      unit: 'ms',
      measured,
      baselineLabel: 'one client on one session, before the load',
      baseline: summarize(baseline.turns.map((outcome) => outcome.firstTextMs)),
      checks: () => [
        check('answers lost, duplicated or out of order, across all clients', wrong, '==', 0),
        check('time to first text, p99', roundTo(measured.p99, 0), '<', TARGET_P99_FIRST_TEXT_MS, 'ms'),
      ],
      details: {
        turns: loaded.length + warm.length,
        'turns per second (first turns included)': roundTo((loaded.length + warm.length) / seconds, 1),
        "a session's first two turns (its servers, then the calculator's evaluator, starting), p50 / max ms": `${roundTo(starts.median, 0)} / ${roundTo(starts.max, 0)}`,
        'time to first text, p50 / p99 ms': `${roundTo(measured.median, 0)} / ${roundTo(measured.p99, 0)}`,
        'server RSS after the load, MB (its MCP servers not counted)': roundTo(memoryMb, 0),
      },
    });
    return benchmarkResult(
      {
        id: 'serve-load',
        title: '`mcp-chat serve` under load',
        howMeasured:
          '`node dist/src/cli.js serve --port 0` with the calculator as its one server and the scripted model; ' +
          `${SESSIONS} sessions, ${CLIENTS_PER_SESSION} WebSocket clients each (the \`ws\` package, one process), ` +
          `${TURNS_PER_SESSION} turns per session sent in turn by its clients after ${WARM_TURNS} first ones that wait ` +
          "for the session's servers and the calculator's evaluator to start (timed apart), the sessions at once; every other " +
          "turn calls the calculator. Time to first text: the sender's message to its first `text` chunk. Every " +
          "client's text of every turn is compared with the answer the model streamed (tagged per turn).",
        warmup: 'none: the baseline session runs first',
        runs: `${BASELINE_TURNS} baseline turns, then ${SESSIONS * (TURNS_PER_SESSION + WARM_TURNS)} turns under load`,
      },
      [result],
      began,
    );
  } finally {
    await serve.stop();
    await model.close();
  }
}
