/**
 * `mcp-chat ask`: one prompt, no REPL. The answer streams to stdout and nothing else
 * goes there; tool progress goes to stderr only when stderr is a terminal. Tools that
 * need approval are denied unless --yes, and the model is told.
 *
 * This module starts what the turn waits for (the servers, then Ollama's check); the Ollama
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

export async function askCommand(
  runtime: Runtime,
  output: Output,
  prompt: string,
  options: AskOptions,
): Promise<number> {
  const { config, log } = runtime;
  // Usage errors first, before anything starts.
  const schema = options.outputSchema === undefined ? undefined : await loadAnswerSchema(options.outputSchema);
  const printer = askPrinter(outputFormatOf(options), output, schema !== undefined);
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
  // Once the servers are starting: Ollama is checked and the turn's code loaded while they do.
  const meanwhile = async (): Promise<{ run: AskRun; turn: typeof import('./ask-turn.js') }> => {
    const turn = import('./ask-turn.js');
    const client = await llm();
    const ollamaReady = client.checkAvailable().then(() => client.checkModel());
    ollamaReady.catch(() => undefined);
    return { run: { ...setUp, llm: client, ollamaReady }, turn: await turn };
  };
  return withHostAnd(runtime, notices, meanwhile, (host, { run, turn }) => turn.askWithHost(run, host), {
    serverRequests,
  });
}
