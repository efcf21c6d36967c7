/**
 * `ask --output-format stream-json` printing: each line one JSON object with its type and
 * timestamp first, calls and results tied by id, warnings and failures as `error` lines, and
 * a `result` at the end that carries the `--json` object.
 */
import { describe, expect, it } from 'vitest';
import type { ToolCall, TurnEvent } from '../../src/vocabulary/types.js';
import type { AskSummary } from '../../src/cli/ask-printer.js';
import { StreamJsonPrinter } from '../../src/cli/stream-json.js';
import { SessionStats } from '../../src/engine/session-stats.js';
import { jsonForTerminal } from '../../src/shared/terminal-text.js';

function printer(whole = false): { lines: string[]; print: StreamJsonPrinter } {
  const lines: string[] = [];
  const print = new StreamJsonPrinter(
    (line) => lines.push(line),
    (value) => jsonForTerminal(value, 0),
    whole,
    () => '2026-01-01T00:00:00.000Z',
  );
  return { lines, print };
}

const call: ToolCall = { server: 'calculator', tool: 'evaluate', arguments: { expression: '2+2' } };
const summary: AskSummary = {
  answer: 'Four.',
  model: 'qwen3',
  toolCalls: [],
  steps: 1,
  toolsOffered: [],
  denied: [],
  serverRequests: [],
  stats: new SessionStats().snapshot(),
};

describe('stream-json lines', () => {
  it('a prompt line carries every message a server prompt gave the model, assistant turns included', () => {
    const { lines, print } = printer();
    const messages = [
      { role: 'user' as const, content: 'Summarise my notes.' },
      { role: 'assistant' as const, content: 'Sure.\u001b[8m hidden' },
    ];
    print.event({ type: 'prompt-messages', server: 'notes', prompt: 'summarise', messages });
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      { type: 'prompt', timestamp: '2026-01-01T00:00:00.000Z', server: 'notes', prompt: 'summarise', messages },
    ]);
  });

  it('are each one line of JSON, type and timestamp first, in the order of the turn', () => {
    const { lines, print } = printer();
    print.start({ sessionId: 's-1', model: 'qwen3', prompt: 'What is 2+2?\nQuickly.', servers: [], tools: [] });
    const events: TurnEvent[] = [
      { type: 'thinking-delta', text: 'Use the\ntool.' },
      { type: 'tool-call', id: 'call_7', call, step: 1 },
      { type: 'tool-result', id: 'call_7', call, result: { isError: false, forModel: '4', durationMs: 3 }, step: 1 },
      { type: 'assistant-delta', text: 'Four\u2028.' },
      { type: 'final', answer: 'Four.', steps: 2, toolCalls: [] },
    ];
    for (const event of events) print.event(event);
    print.finish(summary, { exitCode: 0 });
    expect(lines.every((line) => !line.includes('\n') && !line.includes('\u2028'))).toBe(true);
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map((line) => Object.keys(line).slice(0, 2))).toEqual(parsed.map(() => ['type', 'timestamp']));
    expect(parsed.map((line) => line.type)).toEqual([
      'init',
      'message',
      'thinking',
      'tool_use',
      'tool_result',
      'message',
      'result',
    ]);
    expect(parsed[1]).toMatchObject({ role: 'user', content: 'What is 2+2?\nQuickly.' });
    expect(parsed[3]).toMatchObject({
      tool_name: 'calculator.evaluate',
      tool_id: 'call_7',
      parameters: call.arguments,
    });
    expect(parsed[4]).toMatchObject({ tool_id: 'call_7', status: 'success', output: '4' });
    expect(parsed[5]).toMatchObject({ role: 'assistant', content: 'Four\u2028.', delta: true });
    expect(parsed[6]).toMatchObject({ status: 'success', answer: 'Four.', model: 'qwen3' });
  });

  it('with --output-schema, gives the answer as one message once it conforms, not the streamed drafts', () => {
    const { lines, print } = printer(true);
    print.event({ type: 'assistant-delta', text: 'A draft.' });
    print.finish(summary, { exitCode: 0 });
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map((line) => line.type)).toEqual(['message', 'result']);
    expect(parsed[0]).toEqual({ type: 'message', timestamp: expect.any(String), role: 'assistant', content: 'Four.' });
  });

  it("gives a failed call's error, a warning notice and a failed turn their own lines", () => {
    const { lines, print } = printer();
    print.event({
      type: 'tool-result',
      id: 'call_3',
      call,
      result: { isError: true, forModel: 'bad input', durationMs: 1 },
      step: 1,
    });
    print.event({ type: 'notice', text: 'qwen cannot think', warning: true });
    print.event({ type: 'notice', text: 'attached @a:b' });
    print.finish(summary, { exitCode: 1, error: { type: 'output-schema', message: 'product must be integer' } });
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map((line) => line.type)).toEqual(['tool_use', 'tool_result', 'error', 'error', 'result']);
    // A call refused before it ran still has its tool_use line first, under the call's own id.
    expect(parsed[0]).toMatchObject({ tool_id: 'call_3', server: 'calculator' });
    expect(parsed[1]).toMatchObject({
      tool_id: 'call_3',
      status: 'error',
      error: { type: 'tool_error', message: 'bad input' },
    });
    expect(parsed[2]).toMatchObject({ severity: 'warning', message: 'qwen cannot think' });
    expect(parsed[3]).toMatchObject({ severity: 'error', message: 'product must be integer' });
    expect(parsed[4]).toMatchObject({ status: 'error', error: { type: 'output-schema' } });
  });
});
