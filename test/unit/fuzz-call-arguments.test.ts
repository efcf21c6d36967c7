/**
 * Hostile input for the `call` argument parser: random and mutated JSON, deep nesting,
 * prototype keys, unicode and control characters. The contract: exactly the object the
 * text spells, `{}` for nothing, or a UsageError (exit 2) with a message and an example.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCallArguments } from '../../src/cli/call-command.js';
import { UsageError } from '../../src/shared/errors.js';
import { CPU_BOUND_MS } from '../helpers/ceilings.js';

const RUNS = 10_000;

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf'];
const key = fc.oneof(fc.constantFrom(...PROTO_KEYS, 'expression', 'path'), fc.string({ maxLength: 8 }));
const objectText = fc
  .dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 })
  .map((value) => JSON.stringify(value));
/** Keys written into the text itself: JSON.parse makes `__proto__` an own key, never the prototype. */
const protoText = fc
  .tuple(fc.constantFrom(...PROTO_KEYS), fc.jsonValue({ maxDepth: 2 }))
  .map(([name, value]) => `{"${name}": ${JSON.stringify(value)}, "polluted": {"__proto__": {"polluted": true}}}`);
const nest = (open: string, close: string, depth: number): string => `${open.repeat(depth)}1${close.repeat(depth)}`;
/** Deep, but within what the equality check below can walk; deeper still is its own test. */
const deepText = fc
  .tuple(fc.integer({ min: 1, max: 2_000 }), fc.constantFrom(['{"a":', '}'], ['[', ']'], ['{"__proto__":', '}']))
  .map(([depth, [open, close]]) => nest(open, close, depth));

type Edit = (text: string) => string;
const at = (text: string, index: number): number => index % (text.length + 1);
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.nat().map(
    (i): Edit =>
      (text) =>
        text.slice(0, at(text, i)),
  ),
  fc
    .tuple(
      fc.nat(),
      fc.nat({ max: 8 }),
      fc.constantFrom(
        '{',
        '}',
        '[',
        ']',
        '"',
        "'",
        ',',
        ':',
        '\\',
        '\u0000',
        '\u001b[2J',
        '\uD800',
        '\uFEFF',
        'NaN',
        '1e999',
        '//',
      ),
    )
    .map(
      ([i, cut, insert]): Edit =>
        (text) =>
          text.slice(0, at(text, i)) + insert + text.slice(at(text, i) + cut),
    ),
);
const mutated = fc
  .tuple(fc.oneof(objectText, protoText), fc.array(edit, { minLength: 1, maxLength: 3 }))
  .map(([text, edits]) => edits.reduce((out, apply) => apply(out), text));

const argumentText = fc.oneof(
  { weight: 3, arbitrary: objectText },
  { weight: 2, arbitrary: protoText },
  { weight: 4, arbitrary: mutated },
  fc.json({ maxDepth: 3 }),
  deepText,
  fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r'), maxLength: 4 }),
  fc.string({ unit: 'binary', maxLength: 100 }),
);

/** What the text means as JSON, or `undefined` when it is not JSON at all. */
function jsonMeaning(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

describe('call argument parser under hostile input', () => {
  it(
    `random, mutated, deeply nested and prototype-keyed JSON: ${RUNS} runs, the object or a UsageError`,
    () => {
      const kinds = { parsed: 0, refused: 0 };
      fc.assert(
        fc.property(fc.option(argumentText, { freq: 50 }), (text) => {
          let outcome: Record<string, unknown> | UsageError;
          try {
            outcome = parseCallArguments(text ?? undefined);
          } catch (error) {
            // Anything but the typed error (a TypeError, a RangeError) fails the property right here.
            if (!(error instanceof UsageError)) throw error;
            outcome = error;
          }
          const meaning = text === null || text.trim() === '' ? { value: {} } : jsonMeaning(text);
          const isObject =
            typeof meaning?.value === 'object' && meaning.value !== null && !Array.isArray(meaning.value);
          if (outcome instanceof UsageError) {
            kinds.refused += 1;
            expect(isObject).toBe(false);
            expect(outcome.exitCode).toBe(2);
            expect(outcome.message).toMatch(/^the tool arguments (are not valid JSON: .+|must be a JSON object)$/s);
            expect(outcome.hint).toContain(`mcp-chat call calculator evaluate '{"expression":"2+2"}'`);
          } else {
            kinds.parsed += 1;
            // Compared as JSON: an own `constructor` or `__proto__` key would confuse a structural matcher.
            expect(JSON.stringify(outcome)).toBe(JSON.stringify(meaning?.value));
            expect(Object.getPrototypeOf(outcome)).toBe(Object.prototype);
          }
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        }),
        { numRuns: RUNS },
      );
      expect(kinds.parsed).toBeGreaterThan(RUNS / 10);
      expect(kinds.refused).toBeGreaterThan(RUNS / 10);
    },
    CPU_BOUND_MS,
  );

  const DEEP = 100_000;
  it.each([
    ['objects', nest('{"a":', '}', DEEP), 'a'],
    ['arrays inside an object', `{"a":${nest('[', ']', DEEP)}}`, 'a'],
    ['__proto__ keys', nest('{"__proto__":', '}', DEEP), '__proto__'],
  ])('deeply nested arguments (100,000 levels of %s) parse without a stack overflow', (_label, text, key) => {
    const parsed = parseCallArguments(text);
    expect(Object.keys(parsed)).toEqual([key]);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });
});
