/**
 * A tool's `outputSchema` is checked by the SDK's client: `callTool` throws when the structured
 * content does not match it, or is missing. That is the server's fault, not the arguments', yet
 * the SDK throws it with the code it uses for bad arguments (InvalidParams), so it is told apart
 * by the SDK's own words and said plainly, naming the tool and what did not match.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** The SDK's messages (client/index.js, `callTool`); the detail after them is Ajv's `errorsText`. */
const MISMATCH =
  /(?:Structured content does not match the tool's output schema|Failed to validate structured content): (.*)$/s;
const MISSING = /has an output schema but did not return structured content/;

/** The failure in words for the model and the screen, or `undefined` when `error` is not about the output schema. */
export function outputSchemaFailure(tool: string, error: unknown): string | undefined {
  if (!(error instanceof McpError)) return undefined;
  const mismatch = MISMATCH.exec(error.message);
  if (mismatch) {
    return `${tool} returned structured content that does not match its output schema (${mismatch[1] ?? ''}), so its result was not used.`;
  }
  if (MISSING.test(error.message)) {
    return `${tool} has an output schema but returned no structured content, so its result was not used.`;
  }
  return undefined;
}
