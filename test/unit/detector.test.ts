/**
 * The detector end to end: every call shape, telling examples from calls, routing,
 * the correction hints, truncation, and robustness against random and hostile input.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DetectResult, detectToolCalls, resolveToolName } from '../../src/tool-call/detector.js';
import type { ToolSpec } from '../../src/vocabulary/types.js';
import { CPU_BOUND_MS } from '../helpers/ceilings.js';
import { expectSafeDetection } from '../helpers/detector-properties.js';

function spec(server: string, name: string, params: string[] = ['path']): ToolSpec {
  const properties = Object.fromEntries(
    params.map((param) => [param, { type: param === 'max_results' ? 'integer' : 'string' }]),
  );
  return { server, name, description: name, inputSchema: { type: 'object', properties, required: params } };
}

const TOOLS: ToolSpec[] = [
  spec('calculator', 'evaluate', ['expression']),
  spec('file', 'read_file'),
  spec('file', 'write_file', ['path', 'content']),
  spec('research', 'search_papers', ['topic', 'max_results']),
  spec('github', 'list_files', ['owner', 'repo']),
];
const SHARED: ToolSpec[] = [spec('local', 'search'), spec('remote', 'search'), ...TOOLS];
const TEMPLATE =
  '{"action": "use_tool", "server": "<server>", "tool": "<tool>", "arguments": {"<parameter>": "<value>"}}';

const detect = (raw: string, tools: ToolSpec[] = TOOLS): DetectResult => detectToolCalls(raw, tools);
const evaluate = (expression: string): DetectResult => ({
  type: 'calls',
  calls: [{ server: 'calculator', tool: 'evaluate', arguments: { expression } }],
});
const call = (expression: string): string =>
  `{"action": "use_tool", "server": "calculator", "tool": "evaluate", "arguments": {"expression": "${expression}"}}`;
const hintOf = (result: DetectResult): string =>
  result.type === 'malformed' ? result.hint : `not malformed: ${result.type}`;

describe('call shapes', () => {
  it.each([
    [
      'OpenAI function object with string arguments',
      '{"type": "function", "function": {"name": "evaluate", "arguments": "{\\"expression\\": \\"1+1\\"}"}}',
    ],
    [
      'tool_calls envelope of OpenAI items',
      '{"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "calculator__evaluate", "arguments": {"expression": "1+1"}}}]}',
    ],
    ['LangChain action / action_input', '{"action": "evaluate", "action_input": {"expression": "1+1"}}'],
    ['tool key with args', '{"tool": "evaluate", "server": "calculator", "args": {"expression": "1+1"}}'],
    [
      'arguments flattened into the call',
      '{"action": "use_tool", "server": "calculator", "tool": "evaluate", "expression": "1+1"}',
    ],
    ['<function=name> prefix', '<function=evaluate>{"expression": "1+1"}</function>'],
    ['llama 3.1 built-in spelling', '<|python_tag|>evaluate.call(expression="1+1")<|eom_id|>'],
    ['a bare Python-style call as the whole reply', 'evaluate(expression="1+1")'],
    ['a tool_code fence holding a Python-style list', '```tool_code\n[calculator.evaluate(expression="1+1")]\n```'],
    ['server/tool name with a slash', '{"name": "calculator/evaluate", "arguments": {"expression": "1+1"}}'],
    [
      'Python literals in a single-quoted dict',
      "[TOOL_CALLS][{'name': 'evaluate', 'arguments': {'expression': '1+1'}}]",
    ],
  ])('%s', (_label, raw) => {
    expect(detect(raw)).toEqual(evaluate('1+1'));
  });

  it('runs several <tool_call> blocks and [ARGS] calls in order', () => {
    const tags = `<tool_call>\n${call('1')}\n</tool_call>\n<tool_call>\n{"name": "evaluate", "arguments": {"expression": "2"}}\n</tool_call>`;
    const mistral = '[TOOL_CALLS]evaluate[ARGS]{"expression": "1"}[TOOL_CALLS]evaluate[ARGS]{"expression": "2"}';
    for (const raw of [tags, mistral]) {
      const result = detect(raw);
      expect(result.type === 'calls' && result.calls.map((item) => item.arguments.expression)).toEqual(['1', '2']);
    }
  });

  it('keeps argument values exactly as emitted', () => {
    const raw =
      '{"name": "search_papers", "arguments": {"topic": "x", "max_results": "5", "extra": [1, {"deep": null}], "big": 12345678901234}}';
    expect(detect(raw)).toEqual({
      type: 'calls',
      calls: [
        {
          server: 'research',
          tool: 'search_papers',
          arguments: { topic: 'x', max_results: '5', extra: [1, { deep: null }], big: 12345678901234 },
        },
      ],
    });
  });

  it('shows the inner text of answer wrappers, fenced or not', () => {
    expect(detect('```json\n{"action": "final_answer", "answer": "Paris."}\n```')).toEqual({
      type: 'answer',
      text: 'Paris.',
    });
    expect(detect('{"action": "Final Answer", "action_input": "42"}')).toEqual({ type: 'answer', text: '42' });
  });

  it('cleans leaked end tokens and <response> tags from answers', () => {
    expect(detect('<response>Hello!</response><|eot_id|>')).toEqual({ type: 'answer', text: 'Hello!' });
  });

  it.each([
    [
      'an echoed tool definition',
      '{"name": "evaluate", "description": "Math", "parameters": {"type": "object", "properties": {"expression": {"type": "string"}}}}',
    ],
    [
      'an echoed OpenAI tool definition',
      '{"type": "function", "function": {"name": "evaluate", "parameters": {"type": "object", "properties": {}}}}',
    ],
    [
      'a call inside a Python code fence',
      'Run this:\n```python\ntools = [{"name": "evaluate", "arguments": {"expression": "1"}}]\n```',
    ],
    ['a Python-style list naming no real tool', '[dict(a=1), print(end="")]'],
    ['data with a name key', '{"name": "Ada", "born": 1815}'],
    ['a chat-completion envelope', '{"id": "chatcmpl-1", "choices": [{"message": {"content": "hi"}}]}'],
  ])('treats %s as content', (_label, raw) => {
    expect(detect(raw)).toEqual({ type: 'answer', text: raw });
  });
});

describe('example or call', () => {
  it.each([
    ['a lead-in that says it is an example', `For example, a call looks like:\n${call('1+1')}`],
    ['a hypothetical', `You could send ${call('1+1')} but 1 + 1 is simply 2.`],
    ['inline code inside a sentence', `Use \`${call('1+1')}\` whenever you need arithmetic.`],
    ['a recap of an earlier call', `I called ${call('1+1')} and it returned 2.`],
    [
      'an object mid-explanation followed by more explanation',
      `${'The calculator server evaluates expressions. '.repeat(6)}\n${call('1+1')}\n${'It supports units and functions too. '.repeat(10)}`,
    ],
    [
      'a long explanation that only mentions a call token',
      `Qwen wraps calls in <tool_call> tags.${' It then waits for the result.'.repeat(20)}\n${call('1+1')}`,
    ],
  ])('does not run %s', (_label, raw) => {
    expect(detect(raw)).toEqual({ type: 'answer', text: raw.trim() });
  });

  it.each([
    ['a fence that is the whole reply', `\`\`\`json\n${call('1+1')}\n\`\`\``],
    ['a short lead-in and a fence', `Let me compute that.\n\`\`\`json\n${call('1+1')}\n\`\`\``],
    ['a short trailer', `${call('1+1')}\nThe result will follow.`],
    [
      'a retry whose lead-in mentions what the last call returned',
      `The search returned nothing and it looks like I used the wrong tool. Let me compute it:\n${call('1+1')}`,
    ],
    [
      'a long lead-in before an explicit <tool_call> token',
      `${'I am thinking aloud about this. '.repeat(20)}<tool_call>${call('1+1')}</tool_call>`,
    ],
  ])('runs %s', (_label, raw) => {
    expect(detect(raw)).toEqual(evaluate('1+1'));
  });

  it('never runs a call from reasoning, closed or not', () => {
    expect(detect(`<think>${call('1')}</think>No tool needed.`)).toEqual({ type: 'answer', text: 'No tool needed.' });
    const unclosed = detect(`<think>I will send ${call('1')}`);
    expect(unclosed.type === 'malformed' && unclosed.hint.split('\n')[0]).toMatch(/inside your reasoning/);
    // Cut off mid-reasoning, the draft was not the model's last word: there is nothing to correct.
    const cut = detectToolCalls(`<think>I will send ${call('1')}`, TOOLS, { truncated: true });
    expect(cut).toEqual({ type: 'answer', text: '' });
  });
});

describe('routing', () => {
  it('resolves bare, qualified and case-varied names', () => {
    const found = (name: string, server?: string): string | undefined => {
      const tool = resolveToolName(name, server, SHARED);
      return tool && `${tool.server}.${tool.name}`;
    };
    expect(found('evaluate')).toBe('calculator.evaluate');
    expect(found('github.list_files')).toBe('github.list_files');
    expect(found('File__read_file')).toBe('file.read_file');
    expect(found('evaluate', 'CALCULATOR')).toBe('calculator.evaluate');
    expect(found('evaluate', 'file')).toBe('calculator.evaluate');
    expect(found('Evaluate')).toBe('calculator.evaluate');
    expect(found('search', 'Remote')).toBe('remote.search');
    expect(found('local.search')).toBe('local.search');
    expect(found('search')).toBeUndefined();
    expect(found('get_weather')).toBeUndefined();
  });

  it('asks for the server when several have the tool', () => {
    const result = detect('{"name": "search", "arguments": {"path": "x"}}', SHARED);
    expect(hintOf(result)).toContain('Several servers have a tool named "search" (local.search, remote.search)');
    expect(result).toMatchObject({ unresolved: [{ server: '', tool: 'search', arguments: { path: 'x' } }] });
  });
});

describe('correction hints', () => {
  it('names the missing tool, lists the real ones and shows the exact call format', () => {
    const result = detect('{"name": "get_weather", "arguments": {"city": "Oslo"}}');
    expect(hintOf(result)).toBe(
      [
        'There is no tool named "get_weather".',
        'Nothing was run.',
        'The available tools are: calculator.evaluate, file.read_file, file.write_file, research.search_papers, github.list_files.',
        `To use a tool, reply with only this JSON object and nothing else: ${TEMPLATE}`,
        'For example: {"action": "use_tool", "server": "calculator", "tool": "evaluate", "arguments": {"expression": "<expression>"}}',
      ].join('\n'),
    );
    expect(result).toMatchObject({ unresolved: [{ server: '', tool: 'get_weather', arguments: { city: 'Oslo' } }] });
  });

  it('runs nothing from a batch with an unknown tool', () => {
    const result = detect(`${call('1')}\n{"action": "use_tool", "server": "web", "tool": "fetch", "arguments": {}}`);
    expect(hintOf(result)).toContain('There is no tool "fetch" on server "web".');
    expect(result).toMatchObject({ type: 'malformed', unresolved: [{ server: 'web', tool: 'fetch' }] });
  });

  it('explains arguments that are not an object', () => {
    const result = detect(
      '{"action": "use_tool", "server": "research", "tool": "search_papers", "arguments": "transformers"}',
    );
    expect(hintOf(result)).toContain('The arguments for research.search_papers must be a JSON object');
    expect(hintOf(result)).toContain(
      '{"action": "use_tool", "server": "research", "tool": "search_papers", "arguments": {"topic": "<topic>", "max_results": 1}}',
    );
  });

  it('asks again for calls it cannot read', () => {
    for (const raw of [
      '<tool_call>evaluate 2+2</tool_call>',
      `{"action": "use_tool", "tool": "evaluate", "arguments": {"expression": "1"} "oops"}`,
    ]) {
      expect(hintOf(detect(raw))).toContain('Your tool call could not be read');
      expect(hintOf(detect(raw))).toContain(TEMPLATE);
    }
  });

  it('says when a call was cut off, and lists no tools when there are none', () => {
    const hint = hintOf(
      detectToolCalls('{"action": "use_tool", "tool": "evaluate", "arguments": {"expression": "1', []),
    );
    // No tool to name: the call is spoken of as the model's.
    expect(hint).toMatch(/^Your tool call was not run: your reply ended before the call was complete; [^\n]*$/);
    expect(hintOf(detectToolCalls('{"name": "evaluate", "arguments": {}}', []))).toContain(
      'The available tools are: none.',
    );
  });
});

describe('truncated replies', () => {
  it('runs nothing from a reply that hit the length limit', () => {
    expect(hintOf(detectToolCalls(call('1+1'), TOOLS, { truncated: true }))).toMatch(
      /^The call to evaluate was not run: your reply ended before the call was complete/,
    );
    expect(detectToolCalls('A plain answer that was cut', TOOLS, { truncated: true })).toEqual({
      type: 'answer',
      text: 'A plain answer that was cut',
    });
  });

  it('treats JSON or a Python-style list cut off mid-way as malformed, never partial', () => {
    for (const raw of [
      `${call('1')}\n{"action": "use_tool", "server": "file"`,
      '[evaluate(expression="2+',
      '[TOOL_CALLS][{"name": "evaluate", "arguments": {"expr',
    ]) {
      expect(detect(raw).type, raw).toBe('malformed');
    }
  });
});

const CORPUS = readFileSync(new URL('../fixtures/toolcall-cases.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => (JSON.parse(line) as { raw: string }).raw);
// Fragments that steer random text towards the detector's hard paths.
const PIECES = [
  '{',
  '}',
  '[',
  ']',
  '"',
  "'",
  '\\',
  ':',
  ',',
  '`',
  '```json\n',
  '<think>',
  '</think>',
  '"action"',
  '"use_tool"',
  '"name": "evaluate"',
  '"arguments"',
  '[TOOL_CALLS]',
  '[ARGS]',
  '<tool_call>',
  '<|python_tag|>',
  'evaluate(',
  '=',
  ')',
  'True',
  ' ',
  '\n',
  'x',
];
const edit = fc.tuple(fc.nat(), fc.nat({ max: 40 }), fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 6 }));
/** A corpus reply with a few slices cut out and fragments spliced in. */
const mutated = fc.tuple(fc.constantFrom(...CORPUS), fc.array(edit, { maxLength: 4 })).map(([raw, edits]) =>
  edits.reduce((text, [at, cut, insert]) => {
    const where = at % (text.length + 1);
    return text.slice(0, where) + insert + text.slice(where + cut);
  }, raw),
);
const replies = fc.oneof(
  fc.string({ maxLength: 400 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 120 }),
  mutated,
);

describe('robustness', () => {
  it(
    'never throws and only ever calls real tools on 10,000 random and mutated replies',
    () => expectSafeDetection(replies, TOOLS, 10_000),
    CPU_BOUND_MS,
  );

  const MEGABYTE = 1 << 20;
  it.each([
    ['1 MB of nested braces', '{'.repeat(MEGABYTE), 'answer'],
    ['1 MB of balanced nested braces and brackets', '{['.repeat(MEGABYTE / 4) + ']}'.repeat(MEGABYTE / 4), 'answer'],
    [
      'unterminated string',
      `{"action": "use_tool", "tool": "evaluate", "arguments": {"x": "${'\\"{['.repeat(MEGABYTE / 3)}`,
      'malformed',
    ],
    ['half a million empty objects', '{}'.repeat(MEGABYTE / 2), 'answer'],
    ['repeated [ARGS] prefixes', 'x[ARGS]'.repeat(MEGABYTE / 7), 'answer'],
    ['repeated fences and function tags', '```<function=a'.repeat(MEGABYTE / 14), 'answer'],
    ['a deeply nested Python-style list', `[evaluate(expression=${'['.repeat(MEGABYTE / 2)}`, 'malformed'],
    ['a megabyte of trailing commas', `{"a": 1${','.repeat(MEGABYTE)}}`, 'answer'],
  ])('hostile input: %s', (_label, raw, type) => {
    expect(detect(raw).type).toBe(type);
  });
});
