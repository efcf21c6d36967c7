/**
 * A server's `instructions` from `initialize`, as the model reads them in the system prompt:
 * the server's own words, without the secrets its entry gives it, and capped so one server
 * cannot take the context every request shares.
 */
import type { ServerConfig } from '../config/types.js';
import { capForModel } from './content.js';
import { hideSecrets } from './server-secrets.js';

/** Characters of one server's instructions in the system prompt (sent with every request). */
export const MAX_INSTRUCTIONS_CHARS = 1_000;

/** `undefined` when the server gave none. Secrets go before the cap, so none survives half-cut. */
export function instructionsForModel(instructions: string | undefined, config: ServerConfig): string | undefined {
  const text = instructions?.trim();
  if (!text) return undefined;
  return capForModel(hideSecrets(text, config), MAX_INSTRUCTIONS_CHARS);
}
