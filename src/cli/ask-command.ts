/**
 * `mcp-chat ask`: one prompt, no REPL. The answer streams to stdout and nothing else
 * goes there; tool progress goes to stderr only when stderr is a terminal. Tools that
 * need approval are denied unless --yes, and the model is told.
 */
import type { ToolCallRecord, ToolOffer, TurnEvent } from '../chat/types.js';
import { ExitCode, assertNever } from '../shared/errors.js';
import { createOllamaClient } from '../ollama/client.js';
import { ChatSession } from '../session/chat-session.js';
import { jsonForTerminal } from '../shared/terminal-text.js';
import type { Output } from './output.js';
import type { Runtime } from '../session/runtime.js';
import { formatCall, formatToolLine } from '../present/tool-line.js';
import { formatProgress } from '../present/tool-progress.js';
import { formatToolOffer } from '../present/tool-offer.js';
import { formatServerRequest, type ServerRequestRecord } from '../chat/server-requests.js';
import { scriptGate } from '../session/server-request-gate.js';
import { withHost } from '../session/with-host.js';

export interface AskOptions {
  json?: boolean;
  yes?: boolean;
  maxSteps: number;
}

interface AskOutcome {
  exitCode: number;
  answer: string;
  steps: number;
  toolCalls: ToolCallRecord[];
}

function printEvent(event: TurnEvent, runtime: Runtime, output: Output, options: AskOptions): void {
  switch (event.type) {
    case 'assistant-delta':
      if (!options.json) output.stdoutRaw(event.text);
      return;
    case 'approval-request':
      // A script has no one to ask: --yes is the answer given in advance.
      event.answer(options.yes === true ? 'once' : 'deny');
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
    case 'notice':
      if (output.stderrIsTty) output.stderr(`${event.text}\n`);
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
      output.stderr(`error: no final answer after ${event.steps} steps (raise it with --max-steps)\n`);
      return;
    case 'thinking-delta':
    case 'tool-call':
    case 'final':
    case 'cancelled':
      return;
    default:
      assertNever(event);
  }
}

function outcomeOf(event: TurnEvent): AskOutcome | undefined {
  switch (event.type) {
    case 'final':
      return { exitCode: ExitCode.ok, answer: event.answer, steps: event.steps, toolCalls: event.toolCalls };
    case 'step-limit':
      return { exitCode: ExitCode.stepLimit, answer: '', steps: event.steps, toolCalls: event.toolCalls };
    case 'error':
      return { exitCode: event.usage ? ExitCode.usage : ExitCode.runtime, answer: '', steps: 0, toolCalls: [] };
    case 'cancelled':
      return { exitCode: ExitCode.runtime, answer: '', steps: 0, toolCalls: [] };
    default:
      return undefined;
  }
}

export async function askCommand(
  runtime: Runtime,
  output: Output,
  prompt: string,
  options: AskOptions,
): Promise<number> {
  const { config, log } = runtime;
  const llm = createOllamaClient(config.ollama, log);
  // Check Ollama while the servers start: neither waits for the other.
  const ollamaReady = llm.checkAvailable().then(() => llm.checkModel());
  ollamaReady.catch(() => undefined);
  // A server disabled by a missing variable is the user's choice: say so at a terminal, keep scripts' stderr clean.
  const notices = { warn: output.warn, disabled: output.stderrIsTty ? output.warn : (): void => undefined };
  const records: ServerRequestRecord[] = [];
  const onRecord = (record: ServerRequestRecord): void => {
    records.push(record);
    if (runtime.debug) output.stderr(`[debug] ${formatServerRequest(record)}\n`);
  };
  const serverRequests = scriptGate(config.servers, () => llm, log, output.warn, options.yes === true, onRecord);
  return withHost(
    runtime,
    notices,
    async (host) => {
      await ollamaReady;
      const session = new ChatSession(runtime, host, llm, { maxSteps: options.maxSteps });
      let outcome: AskOutcome | undefined;
      const toolsOffered: ({ step: number } & ToolOffer)[] = [];
      for await (const event of session.runTurn(prompt)) {
        printEvent(event, runtime, output, options);
        if (event.type === 'tools-offered') toolsOffered.push({ step: event.step, ...event.offer });
        outcome ??= outcomeOf(event);
      }
      const result = outcome ?? { exitCode: ExitCode.runtime, answer: '', steps: 0, toolCalls: [] };
      if (options.json) {
        const { answer, steps, toolCalls } = result;
        output.stdout(
          jsonForTerminal({ answer, model: llm.model, toolCalls, steps, toolsOffered, serverRequests: records }),
        );
      } else if (result.exitCode === ExitCode.ok) {
        output.stdoutRaw('\n');
      }
      return result.exitCode;
    },
    { serverRequests },
  );
}
