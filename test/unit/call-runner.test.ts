/**
 * Several calls in one reply: read-only calls that need no approval run together (up to the
 * limit), the others in order; results go back in the order written; a cancel stops them all;
 * the same failing call is not run a third time; a reply cut off by the length limit runs nothing.
 */
import { describe, expect, it } from 'vitest';
import type { NativeToolCall, ToolCall, ToolProgress, ToolResult, ToolSpec } from '../../src/vocabulary/types.js';
import { ChatSession, type ServerStatus } from '../../src/session/chat-session.js';
import { InProcessHost } from '../fakes/in-process-host.js';
import { ScriptedLlm, type ScriptedReply } from '../fakes/scripted-llm.js';
import { answering, testRuntime } from '../helpers/test-session.js';
import { collect, ofType } from '../helpers/turns.js';

const spec = (name: string, readOnly: boolean): ToolSpec => ({
  server: 'lab',
  name,
  description: name,
  inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
  annotations: readOnly ? { readOnlyHint: true } : { destructiveHint: true },
});

/**
 * `look` is read-only and answers only once `expected` looks are running at the same time, so run
 * one after another they would never finish; `note` changes things; `broken` always fails.
 */
class LabHost extends InProcessHost {
  readonly started: string[] = [];
  readonly finished: string[] = [];
  running = 0;
  mostAtOnce = 0;
  cancelled = 0;
  private waiting: (() => void)[] = [];

  constructor(private readonly expected: number) {
    super();
  }

  listTools(): ToolSpec[] {
    return [spec('look', true), spec('note', false), spec('broken', true)];
  }

  statuses(): ServerStatus[] {
    return [];
  }

  requiresApproval(call: ToolCall): boolean {
    return call.tool === 'note';
  }

  async callTool(call: ToolCall, signal?: AbortSignal, onProgress?: (p: ToolProgress) => void): Promise<ToolResult> {
    const id = String(call.arguments.id);
    this.started.push(id);
    if (call.tool === 'broken') return { isError: true, forModel: `broken ${id}`, durationMs: 1 };
    if (call.tool === 'note') {
      // Reported between the call's start and its result, as a server's notifications arrive.
      onProgress?.({ progress: 1, total: 2 });
      await Promise.resolve();
      onProgress?.({ progress: 2, total: 2, message: `noting ${id}` });
      return { isError: false, forModel: `noted ${id}`, durationMs: 1 };
    }
    onProgress?.({ progress: 0, message: `looking at ${id}` });
    this.running += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    const released = new Promise<boolean>((resolve) => {
      this.waiting.push(() => resolve(true));
      signal?.addEventListener('abort', () => resolve(false), { once: true });
    });
    // The last of the expected looks releases them all, the latest first.
    if (this.waiting.length >= this.expected) for (const release of this.waiting.splice(0).reverse()) release();
    const ok = await released;
    this.running -= 1;
    if (!ok) this.cancelled += 1;
    this.finished.push(id);
    return { isError: !ok, forModel: ok ? `saw ${id}` : 'cancelled', durationMs: 1 };
  }
}

const native = (tool: string, id: string): NativeToolCall => ({ name: `lab__${tool}`, arguments: { id } });

function setup(replies: ScriptedReply[], host: LabHost, maxParallel = 4) {
  const llm = new ScriptedLlm(replies, { tools: true, thinking: false });
  const runtime = testRuntime({ toolMode: 'native' });
  runtime.config.tools.maxParallel = maxParallel;
  return { llm, session: new ChatSession(runtime, host, llm) };
}

describe('several calls in one reply', () => {
  it('runs read-only calls together, reports each as it finishes, and sends the results back in the order written', async () => {
    const host = new LabHost(3);
    const reply = { toolCalls: [native('look', 'a'), native('look', 'b'), native('look', 'c')] };
    const { llm, session } = setup([reply, 'Seen.'], host);
    const events = await collect(session.runTurn('look at a, b and c'));
    expect(host.mostAtOnce).toBe(3);
    // Reported in the order they finished, which is not the order written.
    const reported = ofType(events, 'tool-result').map((event) => event.result.forModel);
    expect(reported).toEqual(host.finished.map((id) => `saw ${id}`));
    expect(reported).not.toEqual(['saw a', 'saw b', 'saw c']);
    const sent = llm.requests[1]?.messages
      .filter((message) => message.role === 'tool')
      .map((message) => message.content);
    expect(sent).toEqual(['saw a', 'saw b', 'saw c']);
    expect(ofType(events, 'final')[0]?.toolCalls.map((call) => call.result)).toEqual(['saw a', 'saw b', 'saw c']);
  });

  it('keeps to the limit, and runs a call that needs approval after them, in order', async () => {
    const host = new LabHost(2);
    const reply = { toolCalls: [native('look', 'a'), native('note', 'n'), native('look', 'b')] };
    const { session } = setup([reply, 'Done.'], host, 2);
    const events = await collect(answering(session, session.runTurn('look and note'), 'once'));
    expect(host.mostAtOnce).toBe(2);
    expect(host.started).toEqual(['a', 'b', 'n']);
    expect(ofType(events, 'approval-request').map((event) => event.call.arguments.id)).toEqual(['n']);
  });

  it('reports each call’s progress while it runs, together or in order, before its result', async () => {
    const host = new LabHost(2);
    const reply = { toolCalls: [native('look', 'a'), native('note', 'n'), native('look', 'b')] };
    const { session } = setup([reply, 'Done.'], host, 2);
    const events = await collect(answering(session, session.runTurn('look and note'), 'once'));
    const trace = events.flatMap((event) => {
      if (event.type === 'tool-progress') return [`${String(event.call.arguments.id)} ${event.progress.progress}`];
      if (event.type === 'tool-result') return [`${String(event.call.arguments.id)} done`];
      return [];
    });
    expect(trace.filter((line) => line.startsWith('n '))).toEqual(['n 1', 'n 2', 'n done']);
    for (const id of ['a', 'b']) {
      expect(trace).toContain(`${id} 0`);
      expect(trace.indexOf(`${id} 0`)).toBeLessThan(trace.indexOf(`${id} done`));
    }
    expect(ofType(events, 'tool-progress').find((event) => event.progress.message === 'noting n')).toBeDefined();
  });

  it('a cancel stops every call running together', async () => {
    const host = new LabHost(99);
    const reply = { toolCalls: [native('look', 'a'), native('look', 'b')] };
    const { session } = setup([reply], host);
    const controller = new AbortController();
    const events = await collect(session.runTurn('look', controller.signal), (event) => {
      if (event.type === 'tool-call' && event.call.arguments.id === 'b') setImmediate(() => controller.abort());
    });
    expect(host.cancelled).toBe(2);
    expect(events.at(-1)).toEqual({ type: 'cancelled' });
  });

  it('loop guard: the same call failing twice in a turn is not run a third time, and the model is told why', async () => {
    const host = new LabHost(1);
    const again = { toolCalls: [native('broken', 'x')] };
    const { llm, session } = setup([again, again, again, 'I give up.'], host);
    const events = await collect(session.runTurn('fix x'));
    expect(host.started).toEqual(['x', 'x']);
    const third = ofType(events, 'tool-result')[2]?.result.forModel ?? '';
    expect(third).toContain('already failed 2 times in this turn with these same arguments');
    expect(llm.requests[3]?.messages.at(-1)?.content).toBe(third);
  });

  it('runs none of the native calls of a reply cut off by the length limit', async () => {
    const host = new LabHost(1);
    const cut = { toolCalls: [native('note', 'n')], doneReason: 'length' };
    const { session } = setup([cut, 'Sorry.'], host);
    const events = await collect(answering(session, session.runTurn('note n'), 'once'));
    expect(host.started).toEqual([]);
    expect(ofType(events, 'approval-request')).toHaveLength(0);
    expect(ofType(events, 'tool-result')[0]?.result.forModel).toContain('cut off by the length limit');
  });
});
