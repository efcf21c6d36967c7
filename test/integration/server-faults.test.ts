/**
 * Faults of stdio servers under a whole conversation: the orchestrator and the real host,
 * with one healthy and one misbehaving real child process. For each fault: the user sees
 * one clear tool line, the conversation goes on, the healthy server answers, and no child is left.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ToolResult } from '../../src/vocabulary/types.js';
import { formatToolLine, resultSummary } from '../../src/present/tool-line.js';
import type { StdioServerConfig } from '../../src/config/types.js';
import { createLogger } from '../../src/shared/log.js';
import { McpHost } from '../../src/mcp/host.js';
import { ChatSession } from '../../src/session/chat-session.js';
import { ScriptedLlm } from '../fakes/scripted-llm.js';
import { collectGarbage } from '../helpers/gc.js';
import { descendants, isProcessAlive, scriptedServer } from '../helpers/server-configs.js';
import { collect, ofType, textCall } from '../helpers/turns.js';
import { testRuntime } from '../helpers/test-session.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

interface Fault {
  /** What the faulty server does. */
  name: string;
  /** Its start-up arguments and config. */
  args?: string[];
  config?: Partial<StdioServerConfig>;
  tool: string;
  toolArgs?: Record<string, unknown>;
  /** The tool line the user sees for the faulty call. */
  line: RegExp;
  /** The faulty server answers again on the next call. */
  recovers: boolean;
  /** This fault's test timeout, when the default is too short for it on a busy machine. */
  testTimeoutMs?: number;
}

/**
 * The huge line's call ends when the SDK's 10 MB limit is hit: a condition, not a clock. Reaching
 * it costs the host about 3 s of CPU on an idle machine (the SDK's reader copies and rescans its
 * whole buffer for each 64 KB chunk), several times that on a busy one, where the default 10 s
 * call timeout fired first. The timeout is only a backstop here, far above what the check needs.
 */
const HUGE_LINE_BACKSTOP_MS = 90_000;

const FAULTS: Fault[] = [
  {
    name: 'crashes mid-call',
    tool: 'crash',
    line: /^✗ faulty\.crash\(\) \d+ ms → faulty\.crash failed: server "faulty" stopped during the call \(exited unexpectedly; last output: fatal: simulated crash\)\.$/,
    recovers: true,
  },
  {
    name: 'hangs past its timeout',
    config: { timeoutMs: 500 },
    tool: 'hang',
    line: /^✗ faulty\.hang\(\) \d+ ms → faulty\.hang timed out after 0\.5 s and was cancelled\.$/,
    recovers: true,
  },
  {
    // A banner before the handshake, and a stray line during the call.
    name: 'writes garbage to stdout',
    args: ['stdout-banner'],
    tool: 'garbage',
    line: /^✓ faulty\.garbage\(\) \d+ ms → answered after garbage$/,
    recovers: true,
  },
  {
    // One 12 MB message: over the 10 MB the SDK reads in one line.
    name: 'writes a huge line to stdout',
    config: { timeoutMs: HUGE_LINE_BACKSTOP_MS },
    tool: 'huge',
    toolArgs: { chars: 12_000_000 },
    line: /^✗ faulty\.huge\(chars=12000000\) \d+ ms → faulty\.huge failed: server "faulty" stopped during the call \(disconnected: ReadBuffer exceeded maximum size of 10485760 bytes\)\.$/,
    recovers: true,
    // The whole conversation around that call, with the same backstop.
    testTimeoutMs: 2 * HUGE_LINE_BACKSTOP_MS,
  },
  {
    name: 'exits at start',
    args: ['start-fail'],
    // A tool only the failed server would have had (a name another server has is routed there).
    tool: 'lookup',
    line: /^✗ faulty\.lookup\(\) \d+ ms → There is no tool "lookup" on server "faulty"\. Nothing was run\. The available tools are: healthy\.echo, .*…$/,
    recovers: false,
  },
  {
    name: 'floods stderr (20,000 lines)',
    tool: 'flood_stderr',
    toolArgs: { lines: 20_000, width: 300 },
    line: /^✓ faulty\.flood_stderr\(lines=20000, width=300\) \d+ ms → flooded 20000 lines$/,
    recovers: true,
  },
];

let dir: string;
let host: McpHost | undefined;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-server-faults-'));
});
afterEach(async () => {
  await host?.close();
  host = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

function startHost(fault: Pick<Fault, 'args' | 'config'>): { host: McpHost; logFile: string } {
  const logFile = path.join(dir, 'mcp-chat.log');
  const log = createLogger({ level: 'debug', file: logFile });
  const configs = [scriptedServer('healthy'), scriptedServer('faulty', fault.args, fault.config)];
  host = new McpHost(configs, { log });
  return { host, logFile };
}

function chatbotFor(hostUnderTest: McpHost, llm: ScriptedLlm): ChatSession {
  return new ChatSession(testRuntime({}, { maxMessages: 20 }), hostUnderTest, llm, { approvalRule: () => false });
}

/** Runs one turn and returns the tool results it showed and its final answer. */
async function turn(
  chatbot: ChatSession,
  text: string,
): Promise<{ results: ToolResult[]; lines: string[]; answer: string | undefined }> {
  const events = await collect(chatbot.runTurn(text));
  const shown = ofType(events, 'tool-result');
  return {
    results: shown.map((event) => event.result),
    lines: shown.map((event) => formatToolLine(event.call, event.result)),
    answer: ofType(events, 'final')[0]?.answer,
  };
}

/** What each fault's test proves (see the file's comment). */
const CARRIES_ON =
  'gives one clear tool line; the conversation, the other server and the next turns carry on; no child is left';

describe.each(FAULTS)('a stdio server that $name', (fault) => {
  it(CARRIES_ON, { timeout: fault.testTimeoutMs }, async () => {
    const { host: underTest } = startHost(fault);
    await underTest.start();
    const llm = new ScriptedLlm([
      textCall('faulty', fault.tool, fault.toolArgs),
      'The faulty tool gave me trouble.',
      textCall('healthy', 'echo', { text: 'still here' }),
      'Healthy says still here.',
      fault.recovers ? textCall('faulty', 'echo', { text: 'again' }) : textCall('faulty', fault.tool, fault.toolArgs),
      'Asked faulty again.',
    ]);
    const chatbot = chatbotFor(underTest, llm);

    const first = await turn(chatbot, 'Use the faulty tool');
    expect(first.lines).toHaveLength(1);
    expect(first.lines[0]).toMatch(fault.line);
    expect(first.results[0]?.forModel).not.toMatch(/\n\s+at /);
    expect(first.answer).toBe('The faulty tool gave me trouble.');

    const second = await turn(chatbot, 'Now the healthy one');
    expect(second.lines[0]).toMatch(/^✓ healthy\.echo\(text="still here"\) \d+ ms → echo: still here$/);
    // The conversation survived: the model still sees the first turn and its tool result.
    const history = llm.requests[2]?.messages.map((message) => message.content) ?? [];
    expect(history).toEqual(
      expect.arrayContaining(['Use the faulty tool', 'The faulty tool gave me trouble.', 'Now the healthy one']),
    );

    const third = await turn(chatbot, 'Faulty again');
    // A server that recovers answers again (restarted if it died); one that never started is still refused clearly.
    expect(third.lines[0]).toMatch(
      fault.recovers ? /^✓ faulty\.echo\(text="again"\) \d+ ms → echo: again$/ : fault.line,
    );
    expect(third.answer).toBe('Asked faulty again.');

    const children = descendants(process.pid);
    await underTest.close();
    await vi.waitFor(() => expect(children.filter(isProcessAlive)).toEqual([]), CONDITION_WAIT);
  });
});

describe('what the host keeps of a misbehaving server', () => {
  it('garbage on stdout is logged as skipped, never passed on', async () => {
    const { host: underTest, logFile } = startHost({ args: ['stdout-banner'] });
    await underTest.start();
    const result = await underTest.callTool({ server: 'faulty', tool: 'garbage', arguments: {} });
    expect(result).toMatchObject({ isError: false, forModel: 'answered after garbage' });
    const skipped = fs
      .readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes('not JSON-RPC; skipped'));
    expect(skipped).toHaveLength(2);
  });

  it('stdout flood: 20,000 garbage lines make at most 10 warnings, none with a stack trace, and the server answers', async () => {
    const { host: underTest, logFile } = startHost({});
    await underTest.start();
    const result = await underTest.callTool({ server: 'faulty', tool: 'garbage_flood', arguments: { lines: 20_000 } });
    expect(result).toMatchObject({ isError: false, forModel: 'flooded 20000 lines' });
    const skipped = fs
      .readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes('not JSON-RPC; skipped'));
    expect(skipped).toHaveLength(10);
    expect(skipped.some((line) => line.includes('"stack"'))).toBe(false);
    expect(fs.statSync(logFile).size).toBeLessThan(64 * 1024);
  });

  it('a huge result under the limit (5 MB) is capped before it reaches the model', async () => {
    const { host: underTest } = startHost({});
    await underTest.start();
    const result = await underTest.callTool({ server: 'faulty', tool: 'huge', arguments: { chars: 5_000_000 } });
    expect(result.isError).toBe(false);
    expect(result.forModel).toMatch(/^x{8000}\n\[… truncated: showing 8000 of 5000000 characters\]$/);
    expect(resultSummary(result).length).toBeLessThanOrEqual(160);
  });

  it('a flood of stderr lands in the log, each line capped at 2,000 characters', async () => {
    const { host: underTest, logFile } = startHost({});
    await underTest.start();
    await underTest.callTool({ server: 'faulty', tool: 'flood_stderr', arguments: { lines: 3, width: 50_000 } });
    await vi.waitFor(() => expect(stderrRecords(logFile)).toHaveLength(3), CONDITION_WAIT);
    for (const record of stderrRecords(logFile)) expect(record.msg).toBe(`${'e'.repeat(2000)}…`);
  });

  it('an unfinished 128 MB stderr line is cut as it arrives, never held in memory', async () => {
    const { host: underTest } = startHost({});
    await underTest.start();
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const result = await underTest.callTool({
      server: 'faulty',
      tool: 'flood_stderr',
      arguments: { lines: 1, width: 128 * 2 ** 20, newline: false },
    });
    expect(result.forModel).toBe('flooded 1 lines');
    collectGarbage();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(8 * 2 ** 20);
  });
});

function stderrRecords(logFile: string): Array<{ msg: string }> {
  return fs
    .readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"stream":"stderr"'))
    .map((line) => JSON.parse(line) as { msg: string });
}
