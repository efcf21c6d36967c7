/**
 * The `--think` flag and `/think` argument: `on`, `off` or an effort level, as Ollama's `think`.
 * Pure; an unknown word is a usage error that says what is accepted.
 */
import type { ThinkSetting } from '../vocabulary/types.js';
import { UsageError } from '../shared/errors.js';
import { THINK_LEVELS } from './schema.js';

export const THINK_WORDS = ['on', 'off', ...THINK_LEVELS] as const;

/** A word as `think`, or `undefined` when it is none of `THINK_WORDS` (any case). */
export function thinkFromWord(word: string): ThinkSetting | undefined {
  const lower = word.trim().toLowerCase();
  if (lower === 'on' || lower === 'true') return true;
  if (lower === 'off' || lower === 'false') return false;
  return (THINK_LEVELS as readonly string[]).includes(lower) ? (lower as ThinkSetting) : undefined;
}

/** `--think` given bare is `true`; with a value, one of `THINK_WORDS`. */
export function parseThinkFlag(value: string | boolean): ThinkSetting {
  if (typeof value === 'boolean') return value;
  const think = thinkFromWord(value);
  if (think === undefined) {
    throw new UsageError(
      `--think takes ${THINK_WORDS.join(', ')}, got "${value}"`,
      'Write --think=high (or put --think after the prompt): a bare --think takes the next word as its value.',
    );
  }
  return think;
}

/** How a setting reads in a message: `on`, `off`, or the level. */
export function thinkWord(think: ThinkSetting): string {
  if (think === true) return 'on';
  if (think === false) return 'off';
  return think;
}
