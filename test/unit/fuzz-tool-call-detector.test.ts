/**
 * Hostile input for the tool-call detector: the real replies of the corpus cut short,
 * spliced into each other, with braces doubled, unicode lookalikes and deep nesting, plus
 * hostile native tool calls. The contract: one of the typed outcomes, never a runnable call
 * to a tool outside the catalogue or from a truncated reply, and every case bounded in time.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { interpretReply, type ReplyPlan } from '../../src/engine/reply-interpreter.js';
import { readToolCalls } from '../../src/ollama/wire.js';
import type { NativeToolCall, ToolSpec } from '../../src/vocabulary/types.js';
import { CPU_BOUND_MS } from '../helpers/ceilings.js';

function spec(server: string, name: string, params: string[]): ToolSpec {
  const properties = Object.fromEntries(params.map((param) => [param, { type: 'string' }]));
  return { server, name, description: name, inputSchema: { type: 'object', properties, required: params } };
}

/** The catalogue the corpus assumes (ARCHITECTURE.md, "The text tool-call protocol"). */
const TOOLS: ToolSpec[] = [
  spec('calculator', 'evaluate', ['expression']),
  ...['read_file', 'list_directory', 'get_file_info'].map((name) => spec('file', name, ['path'])),
  spec('file', 'write_file', ['path', 'content']),
  spec('file', 'search_files', ['pattern']),
  spec('research', 'search_papers', ['topic']),
  spec('research', 'extract_info', ['paper_id']),
  ...['get_repository', 'list_files', 'get_file_content', 'search_repositories'].map((name) =>
    spec('github', name, ['owner', 'repo']),
  ),
];
const CATALOGUE = new Set(TOOLS.map((tool) => `${tool.server}.${tool.name}`));

/** Cases per property; a case that hangs is caught by the test's ceiling, not timed. */
const RUNS = 10_000;

const CORPUS = readFileSync(new URL('../fixtures/toolcall-cases.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => (JSON.parse(line) as { raw: string }).raw);

// Lookalikes and invisible characters a model or an attacker can slip into a call.
const UNICODE = [
  '\uFF5B',
  '\uFF5D',
  '\u201C',
  '\u201D',
  '\u00A0',
  '\u200B',
  '\u202E',
  '\uFEFF',
  '\u2028',
  '\uD800',
  '\u0000',
  '\u001b[31m',
  'é',
  '🧮',
];
const BRACKETS = ['{', '}', '[', ']', '(', ')', '"', "'", '`', '\\'];

type Mutation = (text: string) => string;
const position = fc.nat();
const at = (text: string, index: number): number => index % (text.length + 1);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  position.map(
    (i): Mutation =>
      (text) =>
        text.slice(0, at(text, i)),
  ),
  fc.tuple(position, fc.constantFrom(...CORPUS), position).map(
    ([i, other, j]): Mutation =>
      (text) =>
        text.slice(0, at(text, i)) + other.slice(at(other, j)),
  ),
  fc.tuple(position, fc.integer({ min: 2, max: 50 })).map(([i, times]): Mutation => (text) => {
    const where = at(text, i);
    const char = text.charAt(where) || '{';
    return text.slice(0, where) + char.repeat(times) + text.slice(where);
  }),
  fc.tuple(position, fc.constantFrom(...UNICODE)).map(([i, char]): Mutation => (text) => {
    const where = at(text, i);
    return text.slice(0, where) + char + text.slice(where);
  }),
  fc.tuple(position, fc.constantFrom(...BRACKETS)).map(([i, char]): Mutation => (text) => {
    const where = at(text, i);
    return text.slice(0, where) + char + text.slice(where + 1);
  }),
  fc
    .tuple(position, fc.integer({ min: 100, max: 5_000 }), fc.constantFrom('{', '[', '{"a":', '[evaluate(x='))
    .map(([i, depth, open]): Mutation => (text) => {
      const where = at(text, i);
      return text.slice(0, where) + open.repeat(depth) + text.slice(where);
    }),
);

const mutatedReply = fc
  .tuple(fc.constantFrom(...CORPUS), fc.array(mutation, { minLength: 1, maxLength: 4 }))
  .map(([raw, steps]) => steps.reduce((text, step) => step(text), raw));
const deeplyNested = fc
  .tuple(fc.integer({ min: 1_000, max: 20_000 }), fc.constantFrom('{"a":', '[', '{"arguments":'))
  .map(
    ([depth, open]) =>
      `{"action": "use_tool", "server": "calculator", "tool": "evaluate", "arguments": ${open.repeat(depth)}`,
  );
const randomJsonReply = fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value));
const replyText = fc.oneof(
  { weight: 6, arbitrary: mutatedReply },
  deeplyNested,
  randomJsonReply,
  fc.string({ unit: 'binary', maxLength: 300 }),
);

const toolName = fc.oneof(
  fc.constantFrom(...TOOLS.map((tool) => `${tool.server}__${tool.name}`), ...TOOLS.map((tool) => tool.name)),
  fc.constantFrom(
    'evaluate ',
    'EVALUATE',
    'file__',
    '__proto__',
    'constructor',
    'toString',
    'shell__exec',
    'file__write_file__x',
    '',
  ),
  fc.string({ maxLength: 30 }),
);
/** Native calls as Ollama's wire carries them (arguments an object, JSON text or anything), read as the client reads them. */
const wireCall = fc.record({
  function: fc.record({
    name: toolName,
    arguments: fc.oneof(
      fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 })),
      fc.json({ maxDepth: 3 }),
      fc.string({ maxLength: 40 }),
      mutatedReply,
    ),
  }),
});
const nativeCalls: fc.Arbitrary<NativeToolCall[]> = fc
  .array(wireCall, { minLength: 1, maxLength: 3 })
  .map((entries) => readToolCalls(entries))
  .filter((calls) => calls.length > 0);

/** The contract every outcome must keep, whatever the input; returns the outcome's kind for the tally. */
function expectContract(outcome: ReplyPlan, truncated: boolean, native: boolean): string {
  expect(['answer', 'calls']).toContain(outcome.type);
  if (outcome.type === 'answer') {
    expect(typeof outcome.text).toBe('string');
    return 'answer';
  }
  if (outcome.correction !== undefined) expect(outcome.correction.length).toBeGreaterThan(0);
  for (const planned of outcome.calls) {
    if (planned.refusal !== undefined) {
      expect(planned.refusal.isError).toBe(true);
      continue;
    }
    // Only this path runs a tool: it must be in the catalogue, with an object for arguments.
    expect(outcome.correction).toBeUndefined();
    expect(CATALOGUE.has(`${planned.call.server}.${planned.call.tool}`)).toBe(true);
    expect(Object.prototype.toString.call(planned.call.arguments)).toBe('[object Object]');
    if (!native) expect(truncated).toBe(false);
  }
  if (outcome.calls.some((planned) => planned.refusal === undefined)) return 'runs';
  return outcome.correction === undefined ? 'calls' : 'malformed';
}

/** Counts outcome kinds, so a generator that stopped reaching the call paths fails loudly. */
function tally(): { add: (kind: string) => void; seen: () => Record<string, number> } {
  const counts: Record<string, number> = {};
  return { add: (kind) => void (counts[kind] = (counts[kind] ?? 0) + 1), seen: () => counts };
}

describe('tool-call detector under hostile input', () => {
  it(
    `mutated corpus replies (cut, spliced, doubled braces, unicode, deep nesting): ${RUNS} runs, typed outcomes only`,
    () => {
      const kinds = tally();
      fc.assert(
        fc.property(replyText, fc.boolean(), (text, truncated) => {
          const outcome = interpretReply({ text, nativeCalls: [], truncated }, TOOLS);
          kinds.add(expectContract(outcome, truncated, false));
        }),
        { numRuns: RUNS },
      );
      // Every path was exercised: plain answers, corrections, and calls that would run.
      expect(Object.keys(kinds.seen()).sort()).toEqual(['answer', 'malformed', 'runs']);
    },
    CPU_BOUND_MS,
  );

  it(
    `hostile native tool calls (unknown names, prototype names, arguments that are not objects): ${RUNS} runs`,
    () => {
      const kinds = tally();
      fc.assert(
        fc.property(nativeCalls, mutatedReply, (calls, text) => {
          const outcome = interpretReply({ text, nativeCalls: calls, truncated: false }, TOOLS);
          kinds.add(expectContract(outcome, false, true));
          expect(outcome.type === 'calls' ? outcome.calls.length : -1).toBe(calls.length);
        }),
        { numRuns: RUNS },
      );
      expect(Object.keys(kinds.seen()).sort()).toEqual(['calls', 'runs']);
    },
    CPU_BOUND_MS,
  );
});
