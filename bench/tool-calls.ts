/**
 * Benchmark 2, tool-call overhead: `calculator.evaluate` through the host's `callTool`
 * against the same calls through a bare SDK `Client` on its own instance of the same
 * server: 2,000 sequential calls a side (p50/p99 per call), then 100 at once. Target <= 1.10.
 */
import { connectBare, resultText, type BareConnection } from './lib/bare-client.js';
import { pinCpus, type CpuPinning } from './lib/cpu-pinning.js';
import { alternate, pooled, timed, type Paired, type Rounds } from './lib/harness.js';
import { check, row, benchmarkResult, type BenchmarkResult } from './lib/results.js';
import { startHost } from './lib/started-host.js';
import { roundTo, summarize, type Summary } from './lib/stats.js';
import type { Workspace } from './lib/workspace.js';
import type { McpHost } from '../src/mcp/host.js';

/**
 * Two server processes started alike differ by up to 10 % in speed (which core, which caches),
 * as much as the overhead measured. So the calls are spread over PAIRS pairs of fresh processes:
 * each pair's host and bare client get a server of their own, and the samples are pooled. With 5
 * pairs the concurrent row read 0.96 to 1.10 in four runs of one build minutes apart; with 10,
 * 0.96 to 1.03 (bench/fixes.md).
 */
const PAIRS = 10;
/**
 * Per pair, 200 rounds of one call a side (after 100 to warm up): 2,000 sequential calls each in all.
 * One call a round, the order swapped every round, so that each side follows itself as often as the
 * other and both draw the same moments. A server's calls run slower just after it has sat idle while
 * the other side's ran, and slower early in a pair than late. In blocks of 100 calls, two a side a
 * pair, the host had every pair's first block and never one that followed its own, the bare client
 * one of each: seven runs so ordered read 1.05 to 1.08 on Node 26, six call by call 1.03 to 1.05
 * (bench/fixes.md).
 */
const SEQUENTIAL: Rounds = { warmup: 100, runs: 200 };
/**
 * Per pair, 40 batches a side: 400 in all. One batch takes 15 to 35 ms, and its spread is wide: one
 * client on one server, driven as two sides in turns, 30 batches each, read 0.92 to 1.14 against
 * itself from pair to pair (bench/fixes.md).
 */
const CONCURRENT: Rounds = { warmup: 1, runs: 40 };
const AT_ONCE = 100;
const TARGET_RATIO = 1.1;

type Caller = (expression: string) => Promise<string>;

/** The i-th expression: varied, cheap, and the same sequence on both sides. */
const expression = (i: number): string => `${i % 97} * 7 + ${i % 13}`;
const expected = (i: number): string => String((i % 97) * 7 + (i % 13));

function viaHost(host: McpHost): Caller {
  return async (text) => {
    const result = await host.callTool({ server: 'calculator', tool: 'evaluate', arguments: { expression: text } });
    if (result.isError) throw new Error(`host call failed: ${result.forModel}`);
    return result.forModel;
  };
}

function viaBare(bare: BareConnection): Caller {
  return async (text) => resultText(await bare.client.callTool({ name: 'evaluate', arguments: { expression: text } }));
}

/** The next call of one side's sequence, its time in microseconds. */
function sequentialCall(call: Caller): () => Promise<number[]> {
  let index = 0;
  return async () => {
    const i = index++;
    const began = performance.now();
    const text = await call(expression(i));
    const micros = (performance.now() - began) * 1000;
    if (!text.includes(expected(i))) throw new Error(`evaluate(${expression(i)}) gave ${text}`);
    return [micros];
  };
}

/** AT_ONCE calls started together; the time until the last answer, in milliseconds. */
function concurrentBatch(call: Caller): () => Promise<number[]> {
  return async () => [await timed(() => Promise.all(Array.from({ length: AT_ONCE }, (_, i) => call(expression(i)))))];
}

const microDetails = (side: string, summary: Summary): Record<string, number> => ({
  [`${side} p50 µs`]: roundTo(summary.median, 0),
  [`${side} p99 µs`]: roundTo(summary.p99, 0),
});

interface PairSamples {
  sequential: Paired<number>;
  concurrent: Paired<number>;
}

/**
 * One pair of fresh processes: the host's calculator and the bare client's, driven in turns, the
 * host leading when `hostLeads`. Both servers (each with its evaluator child, forked as it starts)
 * run on the CPU `pinning` keeps for them.
 */
async function measurePair(
  workspace: Workspace,
  pinning: CpuPinning | undefined,
  hostLeads: boolean,
): Promise<PairSamples> {
  const { host } = await startHost(workspace, 'http://127.0.0.1:9', ['calculator']);
  const bare = await connectBare(workspace.entry('calculator'));
  pinning?.pinChildren();
  try {
    const hostCall = viaHost(host);
    const bareCall = viaBare(bare);
    const sequential = await alternate(SEQUENTIAL, sequentialCall(hostCall), sequentialCall(bareCall), hostLeads);
    const concurrent = await alternate(CONCURRENT, concurrentBatch(hostCall), concurrentBatch(bareCall), hostLeads);
    return { sequential, concurrent };
  } finally {
    await bare.close();
    await host.close();
  }
}

/** How the processes were placed on CPUs, for the row's description. */
function placement(pinning: CpuPinning | undefined): string {
  if (!pinning)
    return 'Nothing was pinned (one CPU, no `taskset`, or no leave to set CPUs): where the scheduler put each server decided part of its speed.';
  return (
    `This process ran on CPU ${pinning.clientCpu} and every server, with its evaluator child, on CPU ${pinning.serverCpu} ` +
    '(`taskset`), so that where the scheduler puts a server does not decide its speed.'
  );
}

export async function benchToolCalls(workspace: Workspace): Promise<BenchmarkResult> {
  const began = performance.now();
  const pairs: PairSamples[] = [];
  const pinning = pinCpus();
  try {
    // The two sides lead pair by pair, so neither has every pair's first batch (bench/lib/harness.ts).
    for (let index = 0; index < PAIRS; index++) pairs.push(await measurePair(workspace, pinning, index % 2 === 0));
  } finally {
    pinning?.release();
  }
  const sequential = pooled(pairs.map((pair) => pair.sequential));
  const concurrent = pooled(pairs.map((pair) => pair.concurrent));
  const seqHost = summarize(sequential.measured);
  const seqBare = summarize(sequential.baseline);
  const rows = [
    row({
      name: `${PAIRS * SEQUENTIAL.runs} sequential calls, per call`,
      unit: 'µs',
      measured: seqHost,
      baselineLabel: 'bare SDK `Client.callTool`',
      baseline: seqBare,
      checks: (ratio) => [check('ratio of p50s', ratio, '<=', TARGET_RATIO)],
      details: {
        ...microDetails('host', seqHost),
        ...microDetails('bare', seqBare),
        'p99 ratio': roundTo(seqHost.p99 / seqBare.p99, 3),
      },
    }),
    row({
      name: `${AT_ONCE} concurrent calls, until the last answer`,
      unit: 'ms',
      measured: summarize(concurrent.measured),
      baselineLabel: 'bare SDK `Client.callTool`',
      baseline: summarize(concurrent.baseline),
      checks: (ratio) => [check('ratio', ratio, '<=', TARGET_RATIO)],
    }),
  ];
  return benchmarkResult(
    {
      id: 'tool-calls',
      title: 'Tool-call overhead',
      howMeasured:
        "In one process, mcp-chat's `McpHost.callTool` and a bare SDK `Client` each drive their own calculator server " +
        `(same command, arguments and environment), in ${PAIRS} pairs of fresh servers whose samples are pooled, since ` +
        'two server processes started alike differ in speed by as much as the overhead measured. Sequential: ' +
        '`evaluate` calls with varied expressions, the two sides taking turns call by call (the order swapped every ' +
        'round, so each side follows itself as often as the other), each call timed from the call to its resolved ' +
        'result (checked for the right value). Concurrent: ' +
        `${AT_ONCE} calls started at once, timed until the last answer; the calculator evaluates one at a time, so this ` +
        'measures queueing through each client, the batches of the two sides taken in turns as the calls are. The ' +
        'host leads in every other pair, the bare client in the rest. ' +
        placement(pinning),
      warmup: `${SEQUENTIAL.warmup} calls and ${CONCURRENT.warmup} batch a side, in each pair`,
      runs: `${PAIRS * SEQUENTIAL.runs} calls and ${PAIRS * CONCURRENT.runs} batches a side`,
    },
    rows,
    began,
  );
}
