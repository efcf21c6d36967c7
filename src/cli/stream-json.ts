/**
 * `ask --output-format stream-json`: the turn as JSON Lines on stdout, one object per line,
 * each parseable on its own, and nothing else there. Event names and fields follow gemini-cli's
 * headless stream-json (`init`, `message`, `tool_use`, `tool_result`, `error`, `result`, each
 * with a `timestamp`), plus `thinking` for reasoning chunks and our servers and tools in `init`.
 */
import type { ToolCall, TurnEvent } from '../vocabulary/types.js';
import { displayName } from '../vocabulary/tool-naming.js';
import { assertNever } from '../shared/errors.js';
import type { AskEnd, AskPrinter, AskStart, AskSummary } from './ask-printer.js';
import { counted } from '../shared/plural.js';

export type StreamLine =
  | {
      type: 'init';
      session_id: string;
      model: string;
      servers: { name: string; state: string; tools: number }[];
      /** `server.tool`, as the tool lines name them. */
      tools: string[];
    }
  | { type: 'message'; role: 'user' | 'assistant'; content: string; delta?: true }
  /** The messages a server's prompt (`/server:prompt`) gave the model as the turn's input. */
  | { type: 'prompt'; server: string; prompt: string; messages: { role: string; content: string }[] }
  | { type: 'thinking'; content: string; delta: true }
  | {
      type: 'tool_use';
      tool_name: string;
      tool_id: string;
      parameters: Record<string, unknown>;
      server: string;
      tool: string;
    }
  | {
      type: 'tool_result';
      tool_id: string;
      status: 'success' | 'error';
      output?: string;
      error?: { type: string; message: string };
      duration_ms: number;
    }
  | { type: 'error'; severity: 'warning' | 'error'; message: string }
  | ({ type: 'result'; status: 'success' | 'error'; error?: AskEnd['error'] } & AskSummary);

/** The line for a turn event, or none: what only debug shows stays on stderr. */
function lineFor(event: TurnEvent): StreamLine | undefined {
  switch (event.type) {
    case 'assistant-delta':
      return { type: 'message', role: 'assistant', content: event.text, delta: true };
    case 'thinking-delta':
      return { type: 'thinking', content: event.text, delta: true };
    case 'tool-call': {
      const { call } = event;
      const name = displayName(call);
      return { type: 'tool_use', tool_name: name, tool_id: event.id, parameters: call.arguments, ...ref(call) };
    }
    case 'tool-result': {
      const { result } = event;
      const common = { type: 'tool_result', tool_id: event.id, duration_ms: result.durationMs } as const;
      return result.isError
        ? { ...common, status: 'error', error: { type: 'tool_error', message: result.forModel } }
        : { ...common, status: 'success', output: result.forModel };
    }
    case 'prompt-messages': {
      const messages = event.messages.map(({ role, content }) => ({ role, content }));
      return { type: 'prompt', server: event.server, prompt: event.prompt, messages };
    }
    case 'notice':
      return event.warning ? { type: 'error', severity: 'warning', message: event.text } : undefined;
    case 'error':
      return {
        type: 'error',
        severity: 'error',
        message: event.hint ? `${event.message}\n${event.hint}` : event.message,
      };
    case 'step-limit':
      return { type: 'error', severity: 'error', message: `no final answer after ${counted(event.steps, 'step')}` };
    case 'thought':
    case 'model-reply':
    case 'tools-offered':
    case 'approval-request':
    case 'tool-progress':
    case 'malformed-call':
    case 'final':
    case 'cancelled':
      return undefined;
    default:
      return assertNever(event);
  }
}

const ref = (call: ToolCall): { server: string; tool: string } => ({ server: call.server, tool: call.tool });

export class StreamJsonPrinter implements AskPrinter {
  /** Calls whose `tool_use` line is out: each result follows its call's line. */
  private readonly started = new Set<string>();
  /** An `error` line has said why the turn failed: the result need not say it again in a line. */
  private failureSaid = false;

  constructor(
    private readonly writeLine: (line: string) => void,
    /** One line of JSON, made safe for a terminal (cli/output.ts). */
    private readonly encode: (value: unknown) => string,
    /** `--output-schema`: the answer is one message, once it conforms, not streamed drafts. */
    private readonly wholeAnswer = false,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  private emit(line: StreamLine): void {
    if (line.type === 'error' && line.severity === 'error') this.failureSaid = true;
    const { type, ...fields } = line;
    this.writeLine(this.encode({ type, timestamp: this.now(), ...fields }));
  }

  start(start: AskStart): void {
    const servers = start.servers.map((status) => ({
      name: status.name,
      state: status.state,
      tools: status.toolCount,
    }));
    const tools = start.tools.map(displayName);
    this.emit({ type: 'init', session_id: start.sessionId, model: start.model, servers, tools });
    this.emit({ type: 'message', role: 'user', content: start.prompt });
  }

  event(event: TurnEvent): void {
    if (event.type === 'tool-result' && !this.started.has(event.id))
      this.event({ type: 'tool-call', id: event.id, call: event.call, step: event.step });
    if (event.type === 'tool-call') this.started.add(event.id);
    if (event.type === 'assistant-delta' && this.wholeAnswer) return;
    const line = lineFor(event);
    if (line) this.emit(line);
  }

  finish(summary: AskSummary, end: AskEnd): void {
    if (this.wholeAnswer && end.exitCode === 0)
      this.emit({ type: 'message', role: 'assistant', content: summary.answer });
    if (end.error && !this.failureSaid) this.emit({ type: 'error', severity: 'error', message: end.error.message });
    const status = end.exitCode === 0 ? 'success' : 'error';
    this.emit({ type: 'result', status, ...(end.error ? { error: end.error } : {}), ...summary });
  }

  /** The stream ends with a result whatever happens. */
  failedToStart(summary: AskSummary, end: AskEnd): void {
    this.finish(summary, end);
  }
}
