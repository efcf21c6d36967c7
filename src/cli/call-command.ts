/**
 * `mcp-chat call <server> <tool> [json-args]`: one tool call with no model. The result
 * text goes to stdout; an error result goes to stderr with exit code 1.
 */
import { ExitCode, UsageError } from '../shared/errors.js';
import type { Runtime } from '../session/runtime.js';
import type { Output } from './output.js';
import { createOllamaClient } from '../ollama/client.js';
import { scriptGate } from '../session/server-request-gate.js';
import { withHost } from '../session/with-host.js';

const EXAMPLE = `mcp-chat call calculator evaluate '{"expression":"2+2"}'`;

export function parseCallArguments(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `the tool arguments are not valid JSON: ${(error as Error).message}`,
      `For example: ${EXAMPLE}`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError('the tool arguments must be a JSON object', `For example: ${EXAMPLE}`);
  }
  return value as Record<string, unknown>;
}

export async function callCommand(
  runtime: Runtime,
  output: Output,
  target: { server: string; tool: string; json?: string },
  options: { yes?: boolean } = {},
): Promise<number> {
  const args = parseCallArguments(target.json);
  const { config } = runtime;
  const wanted = target.server.toLowerCase();
  const disabled = config.disabled.find((entry) => entry.name.toLowerCase() === wanted);
  if (disabled) {
    output.stderr(`error: server "${disabled.name}" is disabled: ${disabled.reason}\n`);
    return ExitCode.runtime;
  }
  const server = config.servers.find((entry) => entry.name.toLowerCase() === wanted);
  if (!server) {
    const known = config.servers.map((entry) => entry.name).join(', ') || 'none';
    throw new UsageError(`unknown server "${target.server}" (configured: ${known})`, `Config file: ${config.source}`);
  }
  // Only the named server is started: a direct call should not wait on the others.
  const single = { ...runtime, config: { ...config, servers: [server], disabled: [] } };
  const result = await withHost(
    single,
    output,
    (host) => host.callTool({ server: server.name, tool: target.tool, arguments: args }),
    {
      maxResultChars: Number.POSITIVE_INFINITY,
      // The model is reached only if the server asks for a completion, and only as the policy allows.
      serverRequests: scriptGate(
        [server],
        () => createOllamaClient(config.ollama, runtime.log),
        runtime.log,
        output.warn,
        options.yes === true,
      ),
    },
  );
  if (result.isError) {
    // A tool's own "Error:" (the calculator's contract with the model) is not said twice.
    output.stderr(`error: ${result.forModel.replace(/^error:\s*/i, '')}\n`);
    return ExitCode.runtime;
  }
  output.stdout(result.forModel);
  return ExitCode.ok;
}
