/**
 * Turns a mathjs value into the text the model reads: just the value, numbers to 14
 * significant digits. Values too large to be useful in a chat are refused, not truncated.
 */
import type { FormatOptions, MathJsInstance } from 'mathjs';
import { failure, success } from './protocol.js';
import type { Outcome } from './protocol.js';

/**
 * Numbers keep 14 significant digits (hides binary noise such as 0.30000000000000004) and
 * stay in plain notation below 1e15, so an integer answer such as 7006652 reads as itself.
 */
export const FORMAT: FormatOptions = { precision: 14, lowerExp: -7, upperExp: 15 };

/** A matrix larger than this is not an answer a model can use; it would flood the context. */
export const MAX_RESULT_ELEMENTS = 10_000;

/** Cap on the answer text, whatever its type (long strings, many statements). */
export const MAX_RESULT_CHARS = 20_000;

export function formatValue(math: MathJsInstance, value: unknown): Outcome {
  const values = math.isResultSet(value) ? value.entries : [value];
  const parts: string[] = [];
  for (const entry of values) {
    const part = formatOne(math, entry);
    if (!part.ok) return part;
    parts.push(part.text);
  }
  // Every statement ended with ";" (mathjs hides those results), e.g. "a = 2;".
  if (parts.length === 0) return success('(no result)');
  const text = parts.join('\n');
  if (text.length > MAX_RESULT_CHARS) {
    return failure(`The result is too large to return (${text.length} characters, at most ${MAX_RESULT_CHARS})`);
  }
  return success(text);
}

function formatOne(math: MathJsInstance, value: unknown): Outcome {
  if (value === undefined) return success('(no result)');
  if (typeof value === 'function') {
    return failure('The result is a function, not a value: call it with arguments, e.g. sqrt(16)');
  }
  // Strings are answers themselves (format(pi, 3) → 3.14), not mathjs literals to quote.
  if (typeof value === 'string') return success(value);
  if (math.isMatrix(value) || Array.isArray(value)) {
    const elements = countElements(math, value);
    if (elements > MAX_RESULT_ELEMENTS) {
      return failure(
        `The result is too large to return (a matrix of ${elements} elements, at most ${MAX_RESULT_ELEMENTS}); ` +
          'ask for a summary such as size(…), sum(…) or max(…)',
      );
    }
  }
  return success(math.format(value, FORMAT));
}

function countElements(math: MathJsInstance, value: unknown): number {
  const size = math.size(value as number[]);
  const dims: unknown[] = math.isMatrix(size) ? (size.toArray() as unknown[]) : (size as unknown[]);
  return dims.reduce<number>((product, dim) => product * Number(dim), 1);
}
