/**
 * Unit tests for the detector's helpers: the bracket scanner, JSON repair, the
 * Python-style call reader, the reasoning splitter, the typing of template text values
 * and the memoised token search.
 */
import { describe, expect, it } from 'vitest';
import { parseJsonLoose, repairJson } from '../../src/tool-call/json-repair.js';
import { scanBrackets, spanAt } from '../../src/tool-call/json-scan.js';
import { parsePythonicCall, parsePythonicList, parsePythonicStatements } from '../../src/tool-call/pythonic.js';
import { asciiTokens } from '../../src/tool-call/text-scan.js';
import { typedValue } from '../../src/tool-call/text-args.js';
import { TokenFinder, trimTemplateNewlines } from '../../src/tool-call/text-scan.js';
import { stripThinking } from '../../src/tool-call/thinking.js';

const spansOf = (text: string): string[] => scanBrackets(text).spans.map((span) => text.slice(span.start, span.end));

describe('scanBrackets', () => {
  it('ignores braces and brackets inside strings', () => {
    const json = '{"content": "{\\"k\\": [1, {\\"x\\": \\"}\\"}]}", "path": "a}b]"}';
    expect(spansOf(`before ${json} after`)).toEqual([json]);
  });

  it('honours escaped quotes and escaped backslashes', () => {
    const json = String.raw`{"a": "say \"hi\" }", "b": "ends with \\", "c": 1}`;
    expect(spansOf(json)).toEqual([json]);
  });

  it('returns only the outermost span of nested objects, and separate spans in order', () => {
    expect(spansOf('{"a": {"b": {"c": [1, {"d": 2}]}}} and [3, [4]]')).toEqual([
      '{"a": {"b": {"c": [1, {"d": 2}]}}}',
      '[3, [4]]',
    ]);
  });

  it('does not let apostrophes or quotes in prose swallow what follows', () => {
    expect(spansOf(`It's "quoted" {"a": 1} and that's it`)).toEqual(['{"a": 1}']);
    expect(spansOf(`{"note": "it's fine", 'b': 'x'}`)).toEqual([`{"note": "it's fine", 'b': 'x'}`]);
  });

  it('drops openers skipped by a mismatched closer and keeps later spans', () => {
    expect(spansOf('see [here } then {"a": 1}')).toEqual(['{"a": 1}']);
    expect(spansOf('stray } and ] closers {"b": 2}')).toEqual(['{"b": 2}']);
  });

  it('finds an object after an unclosed bracket in prose', () => {
    const scan = scanBrackets('Step [1 {"a": 1}');
    expect(scan.spans).toEqual([{ start: 8, end: 16 }]);
    expect(scan.unclosed).toEqual([5]);
  });

  it('reports openers left open at the end (a cut-off reply)', () => {
    const text = '{"action": "use_tool", "arguments": {"expression": ';
    expect(scanBrackets(text)).toEqual({ spans: [], unclosed: [0, 36] });
    expect(scanBrackets('{"a": "unterminated } ]').unclosed).toEqual([0]);
  });

  it('finds the span containing a position', () => {
    const spans = [
      { start: 2, end: 5 },
      { start: 9, end: 12 },
    ];
    expect(spanAt(spans, 2)).toEqual(spans[0]);
    expect(spanAt(spans, 11)).toEqual(spans[1]);
    expect(spanAt(spans, 5)).toBeUndefined();
    expect(spanAt([], 0)).toBeUndefined();
  });
});

describe('parseJsonLoose and repairJson', () => {
  it('reads strict JSON unchanged', () => {
    expect(parseJsonLoose('{"a": [1, "x"]}')).toEqual({ ok: true, value: { a: [1, 'x'] } });
  });

  it('removes trailing commas in objects and arrays', () => {
    expect(parseJsonLoose('{"a": [1, 2,], "b": {"c": 3,},}')).toEqual({ ok: true, value: { a: [1, 2], b: { c: 3 } } });
    expect(repairJson('[1 ,\n ]')).toBe('[1 \n ]');
  });

  it('turns single-quoted strings into JSON strings, inner quotes included', () => {
    expect(parseJsonLoose(`{'say': 'he said "hi"', 'it': 'it\\'s'}`)).toEqual({
      ok: true,
      value: { say: 'he said "hi"', it: "it's" },
    });
  });

  it('maps Python literals outside strings only', () => {
    expect(parseJsonLoose(`{'a': True, 'b': None, 'c': False, 'd': 'True None'}`)).toEqual({
      ok: true,
      value: { a: true, b: null, c: false, d: 'True None' },
    });
  });

  it('escapes raw newlines and tabs inside strings', () => {
    expect(parseJsonLoose('{"content": "line one\nline\ttwo"}')).toEqual({
      ok: true,
      value: { content: 'line one\nline\ttwo' },
    });
  });

  it('keeps a backslash before a character JSON cannot escape', () => {
    expect(parseJsonLoose(String.raw`{"path": "C:\data\x"}`)).toEqual({
      ok: true,
      value: { path: String.raw`C:\data\x` },
    });
  });

  it('keeps every backslash of a string with an invalid escape literal (a raw Windows path)', () => {
    expect(parseJsonLoose(String.raw`{"path": "C:\Users\me\notes.txt", "text": "a\nb"}`)).toEqual({
      ok: true,
      value: { path: String.raw`C:\Users\me\notes.txt`, text: 'a\nb' },
    });
    expect(parseJsonLoose(String.raw`{'path': 'D:\new\data', "q": "say \"hi\" \x"}`)).toEqual({
      ok: true,
      value: { path: String.raw`D:\new\data`, q: String.raw`say "hi" \x` },
    });
  });

  it('does not guess structure: unquoted keys and broken separators stay broken', () => {
    expect(parseJsonLoose('{ action: "use_tool" }')).toEqual({ ok: false });
    expect(parseJsonLoose('{"parameters>{"a": 1}}')).toEqual({ ok: false });
    expect(parseJsonLoose('{"a": 1')).toEqual({ ok: false });
  });
});

describe('parsePythonicList', () => {
  it('reads llama 3.2 call lists in order', () => {
    expect(parsePythonicList('[evaluate(expression="3 * (4 + 5)"), search_papers(topic="x", max_results=2)]')).toEqual([
      { name: 'evaluate', args: { expression: '3 * (4 + 5)' } },
      { name: 'search_papers', args: { topic: 'x', max_results: 2 } },
    ]);
  });

  it('handles nested quotes, escapes and triple quotes', () => {
    expect(
      parsePythonicList(`[write_file(path='a "b".txt', content="it's \\"ok\\"\\n", note='''multi\nline''')]`),
    ).toEqual([{ name: 'write_file', args: { path: 'a "b".txt', content: 'it\'s "ok"\n', note: 'multi\nline' } }]);
  });

  it('reads numbers, booleans, None, lists, tuples and dicts', () => {
    expect(
      parsePythonicList('[f(a=-1.5e3, b=True, c=False, d=None, e=[1, "x", (2, 3)], g={"k": [true, null]}, h=.5)]'),
    ).toEqual([
      {
        name: 'f',
        args: { a: -1500, b: true, c: false, d: null, e: [1, 'x', [2, 3]], g: { k: [true, null] }, h: 0.5 },
      },
    ]);
  });

  it('accepts empty argument lists, trailing commas and dotted names', () => {
    expect(parsePythonicList('[ calculator.evaluate(expression="1",), ping() ]')).toEqual([
      { name: 'calculator.evaluate', args: { expression: '1' } },
      { name: 'ping', args: {} },
    ]);
  });

  it('rejects what is not a keyword-argument call list', () => {
    for (const text of [
      '[evaluate("2+2")]',
      '[1, 2]',
      '[]',
      '[f(a=b)]',
      '[f(a=1) g(b=2)]',
      '[f(a=1)] extra',
      '[f(a="x\n")]',
      '[f(a=1)',
    ]) {
      expect(parsePythonicList(text), text).toBeUndefined();
    }
  });

  it('keeps a __proto__ key as plain data', () => {
    const [call] = parsePythonicList('[f(__proto__={"polluted": True}, d={"__proto__": 1})]') ?? [];
    expect(Object.keys(call?.args ?? {})).toEqual(['__proto__', 'd']);
    expect(Object.getPrototypeOf(call?.args)).toBe(Object.prototype);
    expect(Object.keys(call?.args.d ?? {})).toEqual(['__proto__']);
  });

  it('bounds nesting depth instead of overflowing the stack', () => {
    expect(parsePythonicList(`[f(a=${'['.repeat(10_000)}${']'.repeat(10_000)})]`)).toBeUndefined();
  });

  it('reads one bare call, and llama 3.1 `.call` spelling', () => {
    expect(parsePythonicCall('brave_search.call(query="ollama")')).toEqual({
      name: 'brave_search',
      args: { query: 'ollama' },
    });
    expect(parsePythonicCall('print("hello")')).toBeUndefined();
  });

  it('reads statements, print() around them included (Gemma 3 tool_code)', () => {
    expect(parsePythonicStatements('print(evaluate(expression="1"))\nping();  read(path="a")')).toEqual([
      { name: 'evaluate', args: { expression: '1' } },
      { name: 'ping', args: {} },
      { name: 'read', args: { path: 'a' } },
    ]);
    for (const text of ['print("hello")', 'print(f(a=1)', 'x = f(a=1)', '', 'printer(a=1) extra']) {
      expect(parsePythonicStatements(text), text).toBeUndefined();
    }
  });
});

describe('stripThinking', () => {
  it('removes a <think> block before the answer', () => {
    expect(stripThinking('<think>\nplan the call\n</think>\n\nThe answer.')).toEqual({
      thinking: 'plan the call',
      visible: 'The answer.',
    });
  });

  it('treats everything after an unclosed <think> as thinking', () => {
    expect(stripThinking('Hi. <think>maybe {"action": "use_tool"}')).toEqual({
      thinking: 'maybe {"action": "use_tool"}',
      visible: 'Hi.',
    });
  });

  it('treats text before a lone </think> as thinking (template-opened block)', () => {
    expect(stripThinking('reasoning here</think>Answer')).toEqual({ thinking: 'reasoning here', visible: 'Answer' });
  });

  it('handles several blocks, other tag names and letter case', () => {
    expect(stripThinking('<THINK>a</THINK>one <thinking>b</thinking>two<reasoning>c</reasoning>')).toEqual({
      thinking: 'a\n\nb\n\nc',
      visible: 'one two',
    });
  });

  it('handles empty blocks and replies without thinking', () => {
    expect(stripThinking('<think>\n\n</think>\n\nHello!')).toEqual({ thinking: '', visible: 'Hello!' });
    expect(stripThinking('Just text')).toEqual({ thinking: '', visible: 'Just text' });
    expect(stripThinking('')).toEqual({ thinking: '', visible: '' });
  });

  it('drops a nested opener or a later stray closer without losing text', () => {
    expect(stripThinking('<think>a <think> b</think>c</think>d')).toEqual({ thinking: 'a  b', visible: 'cd' });
  });
});

describe('stripThinking for template reasoning', () => {
  it("treats gpt-oss's analysis channel as reasoning, whatever its recipient", () => {
    const raw =
      '<|channel|>analysis<|message|>Need the tool.<|end|><|start|>assistant<|channel|>analysis to=functions.x<|message|>{}<|call|><|start|>assistant<|channel|>final<|message|>Done.<|return|>';
    expect(stripThinking(raw)).toEqual({
      thinking: 'Need the tool.\n\n{}',
      visible: '<|start|>assistant<|channel|>final<|message|>Done.<|return|>',
    });
  });

  it("reads Gemma 4's thought channel and Command R7B's thinking tokens, template-opened or not", () => {
    expect(stripThinking('<|channel>thought\nplan<channel|>Answer')).toEqual({ thinking: 'plan', visible: 'Answer' });
    expect(stripThinking('<|START_THINKING|>a<|END_THINKING|>b')).toEqual({ thinking: 'a', visible: 'b' });
    expect(stripThinking('plan<|END_THINKING|><|START_ACTION|>[]')).toEqual({
      thinking: 'plan',
      visible: '<|START_ACTION|>[]',
    });
  });
});

describe('typedValue', () => {
  it('reads JSON of the non-string type the schema asks for, and nothing else', () => {
    expect(typedValue('3', { type: 'integer' })).toBe(3);
    expect(typedValue(' 2.5 ', { type: 'number' })).toBe(2.5);
    expect(typedValue('4', { type: 'number' })).toBe(4);
    expect(typedValue('2.5', { type: 'integer' })).toBe('2.5');
    expect(typedValue('True', { type: 'boolean' })).toBe(true);
    expect(typedValue('[1, 2]', { type: 'array' })).toEqual([1, 2]);
    expect(typedValue('{"a": 1}', { anyOf: [{ type: 'object' }, { type: 'null' }] })).toEqual({ a: 1 });
    expect(typedValue('null', { type: ['integer', 'null'] })).toBeNull();
  });

  it('keeps text when the schema allows a string, says nothing, or the JSON does not fit', () => {
    expect(typedValue('3', { type: 'string' })).toBe('3');
    expect(typedValue('3', { type: ['string', 'integer'] })).toBe('3');
    expect(typedValue('3', {})).toBe('3');
    expect(typedValue('3', undefined)).toBe('3');
    expect(typedValue('"3"', { type: 'integer' })).toBe('"3"');
    expect(typedValue('three', { type: 'integer' })).toBe('three');
  });
});

describe('template scanning helpers', () => {
  it('spells DeepSeek tokens in ASCII without moving any index', () => {
    const text = 'a<\uFF5Ctool\u2581sep\uFF5C>b';
    expect(asciiTokens(text)).toBe('a<|tool_sep|>b');
    expect(asciiTokens(text)).toHaveLength(text.length);
  });

  it('answers repeated forward searches from its memory', () => {
    const finder = new TokenFinder('x--y--x', 'x');
    expect([finder.next(0), finder.next(1), finder.next(3), finder.next(6), finder.next(7)]).toEqual([0, 6, 6, 6, -1]);
  });

  it('trims only the line breaks a template puts around a value', () => {
    expect(trimTemplateNewlines('\n  indented\n\n')).toBe('  indented\n');
    expect(trimTemplateNewlines('\r\nvalue\r\n')).toBe('value');
    expect(trimTemplateNewlines('plain')).toBe('plain');
  });
});
