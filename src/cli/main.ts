/**
 * The command line as a whole: parse it, run the command, and turn every expected failure into
 * one line on stderr and the contract's exit code. A stack trace reaches the screen only for a
 * bug, and then only with --debug.
 */
import { CommanderError } from 'commander';
import { buildProgram } from './program.js';
import { processOutput } from './output.js';
import { ExitCode, McpChatError, errorMessage } from '../shared/errors.js';

function reportError(error: unknown, debug: boolean): number {
  if (error instanceof CommanderError) {
    // Commander has already printed its message; help and --version are not failures.
    return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  if (error instanceof McpChatError) {
    processOutput.stderr(`error: ${error.message}\n${error.hint ? `${error.hint}\n` : ''}`);
    return error.exitCode;
  }
  processOutput.stderr(`error: ${errorMessage(error)}\n`);
  if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return ExitCode.runtime;
}

/** Exits once stdout has drained, so piped output is never cut short. */
function exitAfterFlush(code: number): void {
  process.stdout.write('', () => process.exit(code));
}

export async function runCli(argv: string[]): Promise<void> {
  let exitCode: number = ExitCode.ok;
  const program = buildProgram(processOutput, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(argv);
  } catch (error) {
    exitCode = reportError(error, argv.includes('--debug'));
  }
  exitAfterFlush(exitCode);
}
