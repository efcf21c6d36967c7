/**
 * `mcp-chat ask`: one prompt, no REPL. The answer streams to stdout and nothing else
 * goes there; tool progress goes to stderr only when stderr is a terminal. Tools that
 * need approval are denied unless --yes, and the model is told.
 *
 * This module starts what the turn waits for (the servers, and Ollama's check beside them); the Ollama
 * client and the turn itself (ask-turn.ts, with the engine behind it) are loaded while the
 * servers start, since until they answer there is nothing else to do.
 */
import type { OllamaClient } from '../ollama/client.js';
import type { Output } from './output.js';
import { loadAnswerSchema } from './answer-schema.js';
import { askPrinter, outputFormatOf } from './ask-output.js';
import type { Runtime } from '../session/runtime.js';
import { formatServerRequest, type ServerRequestRecord } from '../vocabulary/server-requests.js';
import { scriptGate } from '../session/server-request-gate.js';
import { withHostAnd } from '../session/with-host.js';
import type { AskOptions, AskRun } from './ask-turn.js';
import { SessionStats } from '../engine/session-stats.js';
import { ExitCode, errorMessage } from '../shared/errors.js';

export async function askCommand(
  runtime: Runtime,
  output: Output,
  prompt: string,
  options: AskOptions,
): Promise<number> {
  const { config, log } = runtime;
  // Usage errors first, before anything starts.
  const schema = options.outputSchema === undefined ? undefined : await loadAnswerSchema(options.outputSchema);
  const printer = askPrinter(outputFormatOf(options), output, {
    wholeAnswer: schema !== undefined,
    pretty: options.pretty === true,
  });
  // Loaded once, after the spawn: a sampling request before then waits for it like the turn does.
  let llmLoad: Promise<OllamaClient> | undefined;
  const llm = (): Promise<OllamaClient> =>
    (llmLoad ??= import('../ollama/client.js').then(({ createOllamaClient }) =>
      createOllamaClient(config.ollama, log),
    ));
  // A server disabled by a missing variable is the user's choice: say so at a terminal, keep scripts' stderr clean.
  const notices = { warn: output.warn, disabled: output.stderrIsTty ? output.warn : (): void => undefined };
  const records: ServerRequestRecord[] = [];
  const onRecord = (record: ServerRequestRecord): void => {
    records.push(record);
    if (runtime.debug) output.stderr(`[debug] ${formatServerRequest(record)}\n`);
  };
  const serverRequests = scriptGate(config.servers, llm, log, output.warn, options.yes === true, onRecord);
  const setUp = { runtime, output, prompt, options, schema, printer, serverRequests: records };
  // Ollama down or the model missing ends the run at once, servers still starting (they are closed);
  // `--json` and `stream-json` still print their one object saying why.
  const notStarted = (error: unknown): never => {
    const summary = { answer: '', model: config.ollama.model, toolCalls: [], steps: 0, toolsOffered: [], denied: [] };
    const stats = new SessionStats().snapshot();
    printer.failedToStart(
      { ...summary, serverRequests: records, stats },
      { exitCode: ExitCode.runtime, error: { type: 'ollama', message: errorMessage(error) } },
    );
    throw error;
  };
  // Once the servers are starting: Ollama is checked and the turn's code loaded while they do.
  const meanwhile = async (): Promise<{ run: AskRun; turn: typeof import('./ask-turn.js') }> => {
    const turn = import('./ask-turn.js');
    const client = await llm();
    // The three questions to Ollama go out together: none waits for another's answer. Which failed
    // first on the wire does not matter: Ollama being unreachable is said before a missing model.
    const available = client.checkAvailable();
    const pulled = client.checkModel();
    pulled.catch(() => undefined);
    // What the model can do is asked by the turn's first step; asked now, the answer is there (cached).
    client.capabilities().catch(() => undefined);
    await available.then(() => pulled).catch(notStarted);
    return { run: { ...setUp, llm: client }, turn: await turn };
  };
  return withHostAnd(runtime, notices, meanwhile, (host, { run, turn }) => turn.askWithHost(run, host), {
    serverRequests,
  });
}
