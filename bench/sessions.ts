/**
 * Benchmark: saved sessions. Two rows. Resuming: the REPL started with `--resume` on a 500-turn
 * session against a resume of a one-turn session of the same kind, in a pseudo-terminal, in the
 * same rounds, spawn to the first frame (conversation, status bar and input line drawn). Target:
 * under 100 ms more, what the session's length costs. (Against a fresh start the resume also pays
 * for the markdown renderer, which a fresh chat loads after its first frame; that is reported too.)
 * Saving: what the end of a turn spends saving that session (the file is built then, and written in
 * the background), against serialising it alone. Target: under 5 ms.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ChatMessage } from '../src/vocabulary/types.js';
import { SessionKeeper, type ScreenItem } from '../src/state/session-keeper.js';
import { SessionStore } from '../src/state/session-store.js';
import { stateDir } from '../src/shared/state-dir.js';
import { startFakeOllama } from '../test/fakes/fake-ollama.js';
import { alternate, timed, until, type Rounds } from './lib/harness.js';
import { cpuTimeMs } from './lib/processes.js';
import { PtySession } from './lib/pty.js';
import { TERMINAL } from './lib/repl.js';
import { check, row, benchmarkResult, type BenchmarkResult, type Row } from './lib/results.js';
import { roundTo, summarize } from './lib/stats.js';
import { CLI, type Workspace } from './lib/workspace.js';

const TURNS = 500;
const SESSION = 'bench-500-turns';
/** The same kind of session, one turn long: its resume draws markdown as the long one's does. */
const SHORT_SESSION = 'bench-1-turn';
/**
 * Many rounds: a start swings on a shared machine by more than the whole target, so the median of
 * a few rounds' differences moves between runs of one build; 40 rounds hold it steady.
 */
const START_ROUNDS: Rounds = { warmup: 2, runs: 40 };
/** Rounds against a fresh start, reported beside the check. */
const FRESH_ROUNDS: Rounds = { warmup: 1, runs: 10 };
const SAVE_ROUNDS = { warmup: 20, runs: 200 };
const TARGET_RESUME_EXTRA_MS = 100;
const TARGET_SAVE_MS = 5;

const ANSWER = [
  'Here is what the calculation shows, step by step:',
  '',
  '1. The expression was evaluated by the **calculator** server.',
  '2. The result is exact; no rounding was needed.',
  '3. The same method works for larger numbers, as `evaluate` handles them all.',
  '',
  'In short, the answer is below, and the tool call above shows how it was found.',
].join('\n');

/** What a REPL's screen holds after `TURNS` turns with a tool call each: user line, tool line, answer. */
function screenOf(turns: number): ScreenItem[] {
  return Array.from({ length: turns }, (_, turn): ScreenItem[] => [
    { type: 'user', text: `Question ${turn}: what is ${turn} times 37, and is it prime?` },
    {
      type: 'tool',
      call: { server: 'calculator', tool: 'evaluate', arguments: { expression: `${turn}*37` } },
      result: { isError: false, forModel: String(turn * 37), durationMs: 3 },
    },
    { type: 'assistant', text: `${ANSWER}\n\n${turn} × 37 = ${turn * 37}.` },
  ]).flat();
}

/** The window the model is sent again (history keeps the last 10 messages by default). */
const MESSAGES: ChatMessage[] = Array.from({ length: 10 }, (_, n) =>
  n % 2 === 0 ? { role: 'user', content: `Question ${n}` } : { role: 'assistant', content: ANSWER },
);

function benchConfig(workspace: Workspace): string {
  // No servers: the rows time the REPL and the session, not servers starting beside them.
  const file = path.join(workspace.dir, 'sessions-bench-config.json');
  const config = { ollama: { model: 'llama3.2' }, mcpServers: {}, logging: { file: path.join(workspace.dir, 'log') } };
  fs.writeFileSync(file, JSON.stringify(config));
  return file;
}

interface Start {
  wallMs: number;
  /** CPU time the REPL process had used by then: less swayed by other work on the machine. */
  cpuMs: number;
}

/** Spawn to the first frame: the last line of the resumed conversation (or the banner) and the status bar under it. */
async function timeStart(workspace: Workspace, ollamaUrl: string, config: string, resume?: string): Promise<Start[]> {
  const args = resume === undefined ? [] : ['--resume', resume];
  const firstFrame = resume === undefined ? /Type a message[\s\S]*ollama/ : /It goes on here\.[\s\S]*ollama/;
  const began = performance.now();
  const session = PtySession.start([process.execPath, CLI, '--config', config, ...args], {
    cwd: workspace.dir,
    env: workspace.env(ollamaUrl),
    ...TERMINAL,
  });
  try {
    const pid = await session.programPid();
    await session.waitFor(firstFrame);
    const start = { wallMs: performance.now() - began, cpuMs: cpuTimeMs(pid) };
    // Keys sent before the chat reads them arrive together and are taken for a paste: wait until it reads.
    await session.waitFor(/ollama ✓/);
    return [start];
  } finally {
    await quit(session);
  }
}

/** Ctrl+D until the REPL has gone. */
async function quit(session: PtySession): Promise<void> {
  try {
    await until(
      'the REPL to quit',
      () => {
        session.type('\u0004');
        return session.hasExited;
      },
      10_000,
      100,
    );
  } finally {
    await session.close();
  }
}

async function resumeRow(workspace: Workspace, store: SessionStore): Promise<Row> {
  const ollama = await startFakeOllama();
  const config = benchConfig(workspace);
  try {
    const resumeLong = (): Promise<Start[]> => timeStart(workspace, ollama.url, config, SESSION);
    const samples = await alternate(START_ROUNDS, resumeLong, () =>
      timeStart(workspace, ollama.url, config, SHORT_SESSION),
    );
    const fresh = await alternate(FRESH_ROUNDS, resumeLong, () => timeStart(workspace, ollama.url, config));
    const measured = summarize(samples.measured.map((start) => start.wallMs));
    const baseline = summarize(samples.baseline.map((start) => start.wallMs));
    // Each round's two starts ran back to back: their difference is the least swayed by the machine's load.
    const extraOver = (paired: { measured: Start[]; baseline: Start[] }): ReturnType<typeof summarize> =>
      summarize(paired.measured.map((start, round) => start.wallMs - (paired.baseline[round]?.wallMs ?? 0)));
    const extra = extraOver(samples);
    const overFresh = extraOver(fresh);
    const cpu = (starts: Start[]): number => roundTo(summarize(starts.map((start) => start.cpuMs)).median, 0);
    return row({
      name: `REPL start resuming a ${TURNS}-turn session`,
      unit: 'ms',
      measured,
      baselineLabel: 'REPL start resuming a one-turn session, same rounds',
      baseline,
      checks: () => [
        check(
          'extra over the one-turn resume of the same round, median',
          roundTo(extra.median, 1),
          '<',
          TARGET_RESUME_EXTRA_MS,
          'ms',
        ),
      ],
      details: {
        'extra over a one-turn resume, p25 / p75 ms': `${roundTo(extra.p25, 0)} / ${roundTo(extra.p75, 0)}`,
        [`extra over a fresh start (${FRESH_ROUNDS.runs} rounds; the markdown renderer's load included), median ms`]:
          roundTo(overFresh.median, 0),
        'REPL fresh start, median ms': roundTo(summarize(fresh.baseline.map((start) => start.wallMs)).median, 0),
        'CPU time of the REPL by its first frame, resumed / one-turn resume / fresh, median ms': `${cpu(samples.measured)} / ${cpu(samples.baseline)} / ${cpu(fresh.baseline)}`,
        'session file, kB': roundTo(fs.statSync(store.file(SESSION)).size / 1024, 0),
        'screen items in the file': screenOf(TURNS).length,
      },
    });
  } finally {
    await ollama.close();
  }
}

async function saveRow(store: SessionStore): Promise<Row> {
  const keeper = new SessionKeeper(store, 'bench-save');
  await keeper.save({ model: 'llama3.2', messages: MESSAGES, shown: screenOf(TURNS), answered: true });
  // Each save after that hands over one more turn's items, as the chat does at the end of a turn.
  const snapshot = { model: 'llama3.2', messages: MESSAGES, shown: screenOf(1), answered: true };
  const turnEnd: number[] = [];
  const onDisk: number[] = [];
  const serialise: number[] = [];
  for (let round = 0; round < SAVE_ROUNDS.warmup + SAVE_ROUNDS.runs; round++) {
    const began = performance.now();
    const written = keeper.save(snapshot);
    const returned = performance.now() - began;
    await written;
    const landed = performance.now() - began;
    const alone = await timed(async () => JSON.stringify(keeper.saved));
    if (round < SAVE_ROUNDS.warmup) continue;
    turnEnd.push(returned);
    onDisk.push(landed);
    serialise.push(alone);
  }
  const measured = summarize(turnEnd);
  return row({
    name: `saving after a turn, ${TURNS}-turn session`,
    unit: 'ms',
    measured,
    baselineLabel: 'JSON.stringify of the same session alone',
    baseline: summarize(serialise),
    checks: () => [check('time the turn waits, median', roundTo(measured.median, 2), '<', TARGET_SAVE_MS, 'ms')],
    details: {
      'time the turn waits, p99 ms': roundTo(measured.p99, 2),
      'until on disk (background: temporary file, fsync, rename), median ms': roundTo(summarize(onDisk).median, 2),
      'until on disk, p99 ms': roundTo(summarize(onDisk).p99, 2),
    },
  });
}

export async function benchSessions(workspace: Workspace): Promise<BenchmarkResult> {
  const began = performance.now();
  const store = new SessionStore(path.join(stateDir(workspace.env()), 'sessions'));
  const keeper = new SessionKeeper(store, SESSION);
  await keeper.save({ model: 'llama3.2', messages: MESSAGES, shown: screenOf(TURNS), answered: true });
  const short = new SessionKeeper(store, SHORT_SESSION);
  await short.save({ model: 'llama3.2', messages: MESSAGES.slice(0, 2), shown: screenOf(1), answered: true });
  const rows = [await resumeRow(workspace, store), await saveRow(store)];
  return benchmarkResult(
    {
      id: 'sessions',
      title: 'Saved sessions: resuming and saving',
      howMeasured:
        `A session of ${TURNS} turns (each a question, a calculator call and a markdown answer of ~450 characters; ` +
        'the last 10 messages for the model) is saved in the workspace state directory. Resuming: the REPL ' +
        '(`node dist/src/cli.js`, no servers) in a pseudo-terminal against the fake Ollama, `--resume` of that ' +
        'session against `--resume` of a one-turn session of the same kind in alternating rounds, timed from spawn ' +
        'until the first frame is on the terminal (the last line of the resumed conversation, or the banner, and the ' +
        "status bar under it); the check is the median of the rounds' differences: what the session's length costs. " +
        'Both resumes draw markdown, so both load the renderer that a fresh chat loads after its first frame; ' +
        `${FRESH_ROUNDS.runs} more rounds against a fresh start give the extra over it, that load included. ` +
        'Saving: in-process, ' +
        '`SessionKeeper.save` with the REPL screen of that session: the time until it returns is what the end of a ' +
        'turn waits (the session is built and serialised then); the write (temporary file, fsync, rename) runs in ' +
        'the background and its time to disk is reported beside. Baseline: serialising the same session alone.',
      warmup: `${START_ROUNDS.warmup} rounds of starts; ${SAVE_ROUNDS.warmup} saves`,
      runs: `${START_ROUNDS.runs} rounds of starts (each side once a round), ${FRESH_ROUNDS.runs} against a fresh start; ${SAVE_ROUNDS.runs} saves`,
    },
    rows,
    began,
  );
}
