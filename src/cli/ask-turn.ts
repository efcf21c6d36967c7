/**
 * The turn of `mcp-chat ask`, once its servers are up: events printed as they come (the answer to
 * stdout through the printer, the rest to stderr), approvals answered by `--yes`, the outcome
 * summed up and the session saved when asked.
 */
import type { ToolCallRecord, ToolOffer, TurnEvent } from '../vocabulary/types.js';
import { ExitCode, assertNever } from '../shared/errors.js';
import type { OllamaClient } from '../ollama/client.js';
import type { McpHost } from '../mcp/host.js';
import { ChatSession } from '../session/chat-session.js';
import type { Output } from './output.js';
import type { AnswerSchema } from './answer-schema.js';
import { checkedEnd } from './ask-output.js';
import type { AskEnd, AskPrinter, AskSummary } from './ask-printer.js';
import { thoughtLine } from '../present/usage.js';
import type { Runtime } from '../session/runtime.js';
import { formatCall, formatToolLine } from '../present/tool-line.js';
import { formatProgress } from '../present/tool-progress.js';
import { formatToolOffer } from '../present/tool-offer.js';
import { promptMessagesView } from '../present/prompt-messages.js';
import type { ServerRequestRecord } from '../vocabulary/server-requests.js';
import { TurnTranscript } from '../state/turn-transcript.js';
import { resumeAskSession, saveAskSession } from './ask-session.js';
import type { AskSession } from './ask-session.js';
import type { OutputFormat } from './ask-output.js';
import { randomUUID } from 'node:crypto';
import { ScriptApprovals } from './ask-denials.js';
import { counted } from '../shared/plural.js';

export interface AskOptions {
  json?: boolean;
  /** `--pretty`: the `--json` object indented. */
  pretty?: boolean;
  yes?: boolean;
  maxSteps: number;
  /** `--session <name>`: the conversation continued and saved (see ask-session.ts). */
  session?: AskSession;
  /** `--output-format`; `--json` is `json`. */
  outputFormat?: OutputFormat;
  /** `--output-schema <file>`. */
  outputSchema?: string;
}

interface AskOutcome extends AskEnd {
  answer: string;
  steps: number;
  toolCalls: ToolCallRecord[];
}

/** What goes to stderr: stdout is the printer's (ask-output.ts). */
function printEvent(event: TurnEvent, runtime: Runtime, output: Output): void {
  switch (event.type) {
    case 'thought':
      if (runtime.debug) output.stderr(`[debug] ${thoughtLine(event.durationMs)}:\n${event.text}\n`);
      return;
    case 'tool-result':
      if (output.stderrIsTty) output.stderr(`${formatToolLine(event.call, event.result)}\n`);
      return;
    case 'model-reply':
      if (runtime.debug) output.stderr(`[debug] step ${event.step} reply (${event.durationMs} ms):\n${event.raw}\n`);
      return;
    case 'malformed-call':
      if (runtime.debug) output.stderr(`[debug] malformed tool call; hint sent: ${event.hint}\n`);
      return;
    case 'prompt-messages':
      // Security: said whoever reads stderr, like a warning: these words reach the model as if typed or said by it.
      output.stderr(`${promptMessagesView(event.server, event.prompt, event.messages)}\n`);
      return;
    case 'notice':
      // A setting that could not be honoured is said whoever reads stderr; what the input brought in, at a terminal.
      if (event.warning) output.warn(event.text);
      else if (output.stderrIsTty) output.stderr(`${event.text}\n`);
      return;
    case 'tool-progress':
      if (runtime.debug) output.stderr(`[debug] ${formatCall(event.call)} ${formatProgress(event.progress)}\n`);
      return;
    case 'tools-offered':
      if (runtime.debug) output.stderr(`[debug] step ${event.step}, ${formatToolOffer(event.offer)}\n`);
      return;
    case 'error':
      output.stderr(`error: ${event.message}\n${event.hint ? `${event.hint}\n` : ''}`);
      return;
    case 'step-limit':
      output.stderr(`error: no final answer after ${counted(event.steps, 'step')} (raise it with --max-steps)\n`);
      return;
    case 'assistant-delta':
    case 'thinking-delta':
    case 'approval-request':
    case 'tool-call':
    case 'final':
    case 'cancelled':
      return;
    default:
      assertNever(event);
  }
}

const CANCELLED = { type: 'cancelled', message: 'the turn was cancelled' };

function outcomeOf(event: TurnEvent): AskOutcome | undefined {
  switch (event.type) {
    case 'final':
      return { exitCode: ExitCode.ok, answer: event.answer, steps: event.steps, toolCalls: event.toolCalls };
    case 'step-limit': {
      const error = { type: 'step-limit', message: `no final answer after ${counted(event.steps, 'step')}` };
      return { exitCode: ExitCode.stepLimit, answer: '', steps: event.steps, toolCalls: event.toolCalls, error };
    }
    case 'error': {
      const error = { type: 'turn', message: event.message };
      const usage = event.kind === 'usage' || event.kind === 'missing-arguments';
      return { exitCode: usage ? ExitCode.usage : ExitCode.runtime, answer: '', steps: 0, toolCalls: [], error };
    }
    case 'cancelled':
      return { exitCode: ExitCode.runtime, answer: '', steps: 0, toolCalls: [], error: CANCELLED };
    default:
      return undefined;
  }
}

/** What one `ask` has set up as its servers start: the printer, the model client, and what it records. */
export interface AskRun {
  runtime: Runtime;
  output: Output;
  prompt: string;
  options: AskOptions;
  schema: AnswerSchema | undefined;
  printer: AskPrinter;
  /** Checked already: reachable, with the model. */
  llm: OllamaClient;
  serverRequests: ServerRequestRecord[];
}

/** The turn, once the servers are up: printed as it goes, summed up at the end, and saved when asked. */
export async function askWithHost(run: AskRun, host: McpHost): Promise<number> {
  const { runtime, output, prompt, options, schema, printer, llm } = run;
  const keeper = options.session?.keeper;
  const session = new ChatSession(runtime, host, llm, {
    maxSteps: options.maxSteps,
    ...(keeper ? { keeper } : {}),
    ...(schema ? { answerFormat: schema.schema } : {}),
  });
  const toolsOffered: ({ step: number } & ToolOffer)[] = [];
  const approvals = new ScriptApprovals(options.yes === true, output);
  const summary = (outcome?: AskOutcome): AskSummary => ({
    answer: outcome?.answer ?? '',
    model: llm.model,
    toolCalls: outcome?.toolCalls ?? [],
    steps: outcome?.steps ?? 0,
    toolsOffered,
    denied: approvals.denied,
    serverRequests: run.serverRequests,
    stats: session.stats.snapshot(),
  });
  printer.start({
    sessionId: randomUUID(),
    model: llm.model,
    prompt,
    servers: host.statuses(),
    tools: host.listTools(),
  });
  resumeAskSession(session, options.session);
  const transcript = new TurnTranscript(prompt);
  let outcome: AskOutcome | undefined;
  for await (const event of session.runTurn(prompt)) {
    // A script has no one to ask: --yes is the answer given in advance.
    if (event.type === 'approval-request') session.answer(event.id, approvals.decide(event));
    printEvent(event, runtime, output);
    printer.event(event);
    if (event.type === 'tools-offered') toolsOffered.push({ step: event.step, ...event.offer });
    outcome ??= outcomeOf(event);
    transcript.note(event);
  }
  const ended = outcome ?? { exitCode: ExitCode.runtime, answer: '', steps: 0, toolCalls: [], error: CANCELLED };
  const result = { ...ended, ...checkedEnd(ended, ended.answer, schema, output) };
  printer.finish(summary(result), result);
  const saved = await saveAskSession(session, options.session, transcript, output);
  return result.exitCode === ExitCode.ok ? saved : result.exitCode;
}
