/**
 * `mcp-chat pull [model]`: downloads a model through Ollama (the configured one when none is
 * named), for scripts and for people. On a terminal, stderr shows a progress line redrawn in
 * place; otherwise nothing is drawn. Either way stdout gets one line at the end (a JSON object
 * with --json). Ctrl+C aborts the request and exits 130; Ollama keeps what it has downloaded.
 */
import { PULL_RESUMES } from '../vocabulary/model-pull.js';
import { createOllamaClient } from '../ollama/client.js';
import { formatPullDone, formatPullProgress, PullMeter } from '../present/pull-progress.js';
import type { Runtime } from '../session/runtime.js';
import { ExitCode, OllamaError, errorMessage } from '../shared/errors.js';
import type { Output } from './output.js';

/** The shell's code for a command stopped by Ctrl+C (128 + SIGINT). */
const INTERRUPTED = 130;

/** One line of stderr drawn over and over. */
interface ProgressLine {
  columns: number;
  draw(text: string): void;
  clear(): void;
}

// The line's own escapes (back to the start, clear to the end) go straight to the terminal; its
// text is made inert where it is built (`formatPullProgress` sanitises the name and Ollama's words).
function terminalLine(stream: NodeJS.WriteStream): ProgressLine {
  return {
    columns: stream.columns || 80,
    draw: (text) => void stream.write(`\r${text}\u001b[K`),
    clear: () => void stream.write('\r\u001b[K'),
  };
}

/** What `--json` says of a failure: Ollama's kind of failure (`unreachable`, `model-missing`, …) and its words. */
function errorRecord(error: unknown): { type: string; message: string } {
  return { type: error instanceof OllamaError ? error.kind : 'failed', message: errorMessage(error) };
}

export async function pullCommand(
  runtime: Runtime,
  output: Output,
  model: string | undefined,
  options: { json?: boolean },
): Promise<number> {
  const name = model ?? runtime.config.ollama.model;
  const llm = createOllamaClient(runtime.config.ollama, runtime.log);
  const controller = new AbortController();
  const interrupt = (): void => controller.abort();
  process.once('SIGINT', interrupt);
  const line = output.stderrIsTty ? terminalLine(process.stderr) : undefined;
  const meter = new PullMeter(name);
  const started = Date.now();
  try {
    for await (const progress of llm.pull(name, controller.signal)) {
      const view = meter.report(progress, Date.now());
      if (line && view) line.draw(formatPullProgress(view, line.columns));
    }
    line?.clear();
    const durationMs = Date.now() - started;
    if (options.json) {
      output.stdout(JSON.stringify({ model: name, status: 'success', bytes: meter.last?.total ?? 0, durationMs }));
    } else {
      output.stdout(formatPullDone(name, meter.last, durationMs));
    }
    return ExitCode.ok;
  } catch (error) {
    line?.clear();
    if (!controller.signal.aborted) {
      // A script reading stdout gets its one object either way; the error line goes to stderr as usual.
      if (options.json) output.stdout(JSON.stringify({ model: name, status: 'error', error: errorRecord(error) }));
      throw error;
    }
    output.stderr(`Pull of ${name} cancelled. ${PULL_RESUMES}\n`);
    return INTERRUPTED;
  } finally {
    process.removeListener('SIGINT', interrupt);
  }
}
