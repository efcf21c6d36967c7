/**
 * The template parser Ollama names for the model, asked of its (cached) capabilities.
 * Policy: a hint for reading calls written as text, never required: a server too old to
 * name one, or one that cannot answer, leaves detection as it is.
 */
import type { LlmClient } from '../vocabulary/types.js';

export async function templateParser(llm: LlmClient): Promise<string | undefined> {
  try {
    return (await llm.capabilities()).parser;
  } catch {
    // The reply already arrived; without the hint every format is read, as before v0.32.2.
    return undefined;
  }
}
