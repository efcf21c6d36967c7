/**
 * Timed token streams for benchmark 4: the fake Ollama plays numbered tokens through the
 * relay, which notes when each leaves; a driver runs the client (piped, or in a terminal)
 * and each token is timed again when it shows up in the client's output.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { FakeOllama } from '../../test/fakes/fake-ollama.js';
import { MODEL } from './fake-model.js';
import { until } from './harness.js';
import { ChunkJoiner, MarkerLog, markerTokens } from './markers.js';
import { cpuTimeMs } from './processes.js';
import { PtySession } from './pty.js';
import { submit, TERMINAL, type Repl } from './repl.js';
import { check, row, type Row } from './results.js';
import { roundTo, summarize } from './stats.js';
import type { TokenTap } from './token-tap.js';
import { BASELINE_DIR, CLI, type Workspace } from './workspace.js';

/** The fake's pause between chunks: with the write itself, about 200 tokens a second, a fast local model. */
export const CHUNK_DELAY_MS = 4;
/** Once the fake has sent everything, how long a missing token is waited for before it counts as lost. */
const LOSS_GRACE_MS = 3_000;

export interface StreamOutcome {
  /** Per token, ms from leaving the relay to arriving on the client's output. */
  latencies: number[];
  lost: number;
  firstTokenMs: number;
  /** CPU use of the client process while the tokens flowed, % of one core. */
  cpuPercent: number;
  /** Tokens per second the fake actually sent. */
  sendRate: number;
}

export interface StreamContext {
  ollama: FakeOllama;
  tap: TokenTap;
  workspace: Workspace;
}

export interface DriverRun {
  /** Settles when the client is done with the stream (a process exits); tokens may still be awaited after it. */
  finished: Promise<void>;
  /** Stops feeding output, once the run is over. */
  stop?: () => void;
}

export interface DriverHooks {
  /** Feeds the client's output, with its arrival time. */
  seen: (text: string, at: number) => void;
  /** Names the client's process as soon as it is known (its CPU time is read while tokens flow). */
  started: (pid: number) => void;
}

/** Starts the client for one stream. */
export type Driver = (hooks: DriverHooks) => Promise<DriverRun>;

let nextRun = 1;

/** Plays one numbered stream and times every token from the relay to the client's output. */
export async function timeStream(context: StreamContext, count: number, driver: Driver): Promise<StreamOutcome> {
  const run = nextRun++;
  context.ollama.script({ text: markerTokens(run, count), chunkDelayMs: CHUNK_DELAY_MS });
  let pid = -1;
  const cpu: Array<[number, number]> = [];
  const sampleCpu = (index: number): void => {
    if (index === 0 || index === count - 1) cpu.push([cpuTimeMs(pid), performance.now()]);
  };
  const sent = new MarkerLog(run, sampleCpu);
  const seen = new MarkerLog(run);
  const joiner = new ChunkJoiner();
  context.tap.log = sent;
  const started = await driver({
    seen: (text, at) => seen.record(joiner.push(text), at),
    started: (known) => (pid = known),
  });
  await started.finished;
  const allSentAt = () => Math.max(...sent.times.values());
  const complete = (): boolean =>
    seen.times.size >= count || (sent.times.size >= count && performance.now() - allSentAt() > LOSS_GRACE_MS);
  await until('every token on the output', complete, 60_000);
  started.stop?.();
  context.tap.log = undefined;
  const latencies = [...sent.times].flatMap(([index, at]) => {
    const arrived = seen.times.get(index);
    return arrived === undefined ? [] : [arrived - at];
  });
  const [first, last] = [cpu[0], cpu[1]];
  return {
    latencies,
    lost: count - latencies.length,
    firstTokenMs: (seen.times.get(0) ?? Number.NaN) - (sent.times.get(0) ?? Number.NaN),
    cpuPercent: first && last ? ((last[0] - first[0]) / (last[1] - first[1])) * 100 : Number.NaN,
    sendRate: ((count - 1) * 1000) / (allSentAt() - (sent.times.get(0) ?? 0)),
  };
}

/** A client with its stdout on a pipe: `ask`, or the baseline printer. */
export function pipedDriver(argv: string[], context: StreamContext): Driver {
  return async ({ seen, started }) => {
    const child = spawn(process.execPath, argv, {
      cwd: context.workspace.dir,
      env: context.workspace.env(context.tap.url),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.on('data', (bytes: Buffer) => seen(bytes.toString('utf8'), performance.now()));
    child.stderr.on('data', (bytes: Buffer) => (stderr += bytes.toString()));
    started(child.pid ?? -1);
    const finished = new Promise<void>((resolve, reject) =>
      child.on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`${argv.join(' ')} exited with ${code}:\n${stderr}`)),
      ),
    );
    return { finished };
  };
}

/** The same baseline printer, in a pseudo-terminal. */
export function ptyPrinterDriver(prompt: string, context: StreamContext): Driver {
  return async ({ seen, started }) => {
    const session = PtySession.start([process.execPath, printerPath(), context.tap.url, MODEL, prompt], {
      cwd: context.workspace.dir,
      env: context.workspace.env(context.tap.url),
      ...TERMINAL,
    });
    session.onOutput(seen);
    started(await session.programPid());
    return { finished: session.close(60_000) };
  };
}

/** One turn of the running REPL: type a prompt, and it is finished once the stream is over. */
export function replDriver(repl: Repl, context: StreamContext, prompt: string): Driver {
  return async ({ seen, started }) => {
    started(repl.pid);
    const stop = repl.session.onOutput(seen);
    await submit(repl, context.ollama, prompt);
    return { finished: Promise.resolve(), stop };
  };
}

export const printerPath = (): string => path.join(BASELINE_DIR, 'stream-printer.js');
export const askArgv = (context: StreamContext, prompt: string): string[] => [
  CLI,
  '--config',
  context.workspace.configPath,
  'ask',
  prompt,
];

/** What a stream row must reach: the p50 latency always; the p99 and CPU against the baseline's when given. */
export interface StreamTargets {
  p50Ms: number;
  p99Ms?: number;
  /** The client's CPU while streaming, at most this many times the baseline's (medians of the runs). */
  cpuRatio?: number;
}

/** A row from the outcomes of the measured client and its baseline. */
export function streamRow(
  name: string,
  baselineLabel: string,
  targets: StreamTargets,
  measured: StreamOutcome[],
  baseline: StreamOutcome[],
  details: Record<string, number | string> = {},
): Row {
  const summary = summarize(measured.flatMap((outcome) => outcome.latencies));
  const baselineSummary = summarize(baseline.flatMap((outcome) => outcome.latencies));
  const median = (values: number[]): number => roundTo(summarize(values).median, 1);
  /** Each stream's figure in the order run: a trend over a session's replies shows. */
  const inOrder = (values: number[]): string => values.map((value) => roundTo(value, 1)).join(', ');
  const cpuOf = (outcomes: StreamOutcome[]): number[] => outcomes.map((outcome) => outcome.cpuPercent);
  const cpu = median(cpuOf(measured));
  const baselineCpu = median(cpuOf(baseline));
  const cpuRatio = roundTo(cpu / baselineCpu, 2);
  return row({
    name,
    unit: 'ms',
    measured: summary,
    baselineLabel,
    baseline: baselineSummary,
    checks: () => [
      check('p50 latency', summary.median, '<', targets.p50Ms, 'ms'),
      ...(targets.p99Ms === undefined ? [] : [check('p99 latency', summary.p99, '<', targets.p99Ms, 'ms')]),
      ...(targets.cpuRatio === undefined ? [] : [check('CPU ratio', cpuRatio, '<=', targets.cpuRatio)]),
      check(
        'tokens lost',
        measured.reduce((sum, outcome) => sum + outcome.lost, 0),
        '==',
        0,
      ),
    ],
    details: {
      'p99 ms': roundTo(summary.p99, 1),
      'baseline p99 ms': roundTo(baselineSummary.p99, 1),
      'first token, median ms': median(measured.map((outcome) => outcome.firstTokenMs)),
      'CPU while streaming, % of a core': cpu,
      'baseline CPU, % of a core': baselineCpu,
      'CPU of each stream in order, % of a core': inOrder(cpuOf(measured)),
      "baseline's CPU of each stream in order, % of a core": inOrder(cpuOf(baseline)),
      'CPU ratio to the baseline': cpuRatio,
      'baseline tokens lost': baseline.reduce((sum, outcome) => sum + outcome.lost, 0),
      'tokens sent per second': median(measured.map((outcome) => outcome.sendRate)),
      ...details,
    },
  });
}
