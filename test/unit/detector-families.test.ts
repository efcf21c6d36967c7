/**
 * The detector on every model family's own call format (issue 15): each format's quirks,
 * and the placement rules for all of them: a call shown as an example, quoted, inside
 * thinking, in a fence of another language, disowned, in an HTML comment, or cut off
 * never runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DetectResult, detectToolCalls } from '../../src/tool-call/detector.js';
import type { ToolCall, ToolSpec } from '../../src/vocabulary/types.js';
import { CPU_BOUND_MS } from '../helpers/ceilings.js';
import { expectSafeDetection } from '../helpers/detector-properties.js';

function spec(server: string, name: string, properties: Record<string, unknown>): ToolSpec {
  const required = Object.keys(properties).slice(0, 1);
  return { server, name, description: name, inputSchema: { type: 'object', properties, required } };
}

const TOOLS: ToolSpec[] = [
  spec('calculator', 'evaluate', { expression: { type: 'string' } }),
  spec('file', 'read_file', { path: { type: 'string' } }),
  spec('file', 'write_file', { path: { type: 'string' }, content: { type: 'string' } }),
  spec('research', 'search_papers', { topic: { type: 'string' }, max_results: { type: 'integer' } }),
  spec('github', 'list_files', { owner: { type: 'string' }, repo: { type: 'string' }, options: { type: 'object' } }),
];

const detect = (raw: string): DetectResult => detectToolCalls(raw, TOOLS);
const calls = (...items: ToolCall[]): DetectResult => ({ type: 'calls', calls: items });
const evaluate = (expression: string): ToolCall => ({
  server: 'calculator',
  tool: 'evaluate',
  arguments: { expression },
});
const readFile = (path: string): ToolCall => ({ server: 'file', tool: 'read_file', arguments: { path } });

/** One call to calculator.evaluate with `expression` in each family's format. */
const FORMATS: Record<string, (expression: string) => string> = {
  harmony: (x) =>
    `<|start|>assistant<|channel|>commentary to=functions.evaluate <|constrain|>json<|message|>{"expression": "${x}"}<|call|>`,
  'deepseek v3': (x) =>
    `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>evaluate\n\`\`\`json\n{"expression": "${x}"}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
  'deepseek v3.1': (x) =>
    `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>evaluate<｜tool▁sep｜>{"expression": "${x}"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
  'deepseek dsml': (x) =>
    `<｜DSML｜function_calls>\n<｜DSML｜invoke name="evaluate">\n<｜DSML｜parameter name="expression" string="true">${x}</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>`,
  kimi: (x) =>
    `<|tool_calls_section_begin|><|tool_call_begin|>functions.evaluate:0<|tool_call_argument_begin|>{"expression": "${x}"}<|tool_call_end|><|tool_calls_section_end|>`,
  glm: (x) => `<tool_call>evaluate\n<arg_key>expression</arg_key>\n<arg_value>${x}</arg_value>\n</tool_call>`,
  minimax: (x) =>
    `<minimax:tool_call>\n<invoke name="evaluate">\n<parameter name="expression">${x}</parameter>\n</invoke>\n</minimax:tool_call>`,
  'qwen3-coder': (x) =>
    `<tool_call>\n<function=evaluate>\n<parameter=expression>\n${x}\n</parameter>\n</function>\n</tool_call>`,
  'gemma 3': (x) => `\`\`\`tool_code\nprint(evaluate(expression="${x}"))\n\`\`\``,
  'gemma 4': (x) => `<|tool_call>call:evaluate{expression:<|"|>${x}<|"|>}<tool_call|>`,
  functiongemma: (x) => `<start_function_call>call:evaluate{expression:<escape>${x}<escape>}<end_function_call>`,
  functionary: (x) => `>>>evaluate\n{"expression": "${x}"}`,
  'command r7b': (x) =>
    `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "evaluate", "parameters": {"expression": "${x}"}}]<|END_ACTION|>`,
  'mistral small 3.2': (x) => `[TOOL_CALLS]evaluate[CALL_ID]a1b2c3d4e[ARGS]{"expression": "${x}"}`,
  cline: (x) =>
    `<use_mcp_tool>\n<server_name>calculator</server_name>\n<tool_name>evaluate</tool_name>\n<arguments>\n{"expression": "${x}"}\n</arguments>\n</use_mcp_tool>`,
  anthropic: (x) =>
    `<function_calls>\n<invoke name="evaluate">\n<parameter name="expression">${x}</parameter>\n</invoke>\n</function_calls>`,
  'our xml': (x) => `<use_tool server="calculator" tool="evaluate">{"expression": "${x}"}</use_tool>`,
  'our xml, children': (x) =>
    `<use_tool>\n<server>calculator</server>\n<tool>evaluate</tool>\n<arguments><expression>${x}</expression></arguments>\n</use_tool>`,
  'deepseek v4 dsml': (x) =>
    `<｜｜DSML｜｜tool_calls>\n<｜｜DSML｜｜invoke name="evaluate">\n<｜｜DSML｜｜parameter name="expression" string="true">${x}</｜｜DSML｜｜parameter>\n</｜｜DSML｜｜invoke>\n</｜｜DSML｜｜tool_calls>`,
  seed: (x) =>
    `<seed:tool_call>\n<function=evaluate>\n<parameter=expression>${x}</parameter>\n</function>\n</seed:tool_call>`,
  apertus: (x) => `<|tools_prefix|>[{"evaluate": {"expression": "${x}"}}]<|tools_suffix|>`,
  'olmo 3': (x) => `<function_calls>evaluate(expression="${x}")</function_calls>`,
  laguna: (x) => `<tool_call>evaluate\n{"expression": "${x}"}</tool_call>`,
  'hunyuan v3': (x) =>
    `<tool_calls><tool_call>evaluate<tool_sep><arg_key>expression</arg_key><arg_value>${x}</arg_value></tool_call></tool_calls>`,
  // Hy3 as shipped: each structural token carries the tokenizer's suffix (SGLang PR #29920).
  'hunyuan hy3': (x) =>
    `<tool_calls:opensource><tool_call:opensource>evaluate<tool_sep:opensource><arg_key:opensource>expression</arg_key:opensource><arg_value:opensource>${x}</arg_value:opensource></tool_call:opensource></tool_calls:opensource>`,
  lfm2: (x) => `<|tool_call_start|>[evaluate(expression="${x}")]<|tool_call_end|>`,
  'kimi k3': (x) =>
    `<|open|>tools<|sep|><|open|>call tool="evaluate" index="0"<|sep|><|open|>argument key="expression" type="string"<|sep|>${x}<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`,
  'nemotron nano v2': (x) => `<TOOLCALL>[{"name": "evaluate", "arguments": {"expression": "${x}"}}]</TOOLCALL>`,
};
const EXPRESSION = '12 * (3 + 4)';
const FAMILIES = Object.entries(FORMATS);

/** Every reasoning syntax the families print, around a draft; the lone closers are opened by the template. */
const REASONING: Record<string, (draft: string) => string> = {
  '<think>': (draft) => `<think>${draft}</think>`,
  '[THINK]': (draft) => `[THINK]${draft}[/THINK]`,
  '<seed:think>': (draft) => `<seed:think>${draft}</seed:think>`,
  '<|thinking|>': (draft) => `<|thinking|>${draft}<|/thinking|>`,
  '<|START_THINKING|>': (draft) => `<|START_THINKING|>${draft}<|END_THINKING|>`,
  'Gemma 4 thought channel': (draft) => `<|channel>thought\n${draft}<channel|>`,
  'Apertus inner tokens': (draft) => `<|inner_prefix|>${draft}<|inner_suffix|>`,
  'Kimi K3 think section': (draft) => `<|open|>think<|sep|>${draft}<|close|>think<|sep|>`,
  'DeepSeek <｜end▁of▁thinking｜>': (draft) => `${draft}<｜end▁of▁thinking｜>`,
  'a lone </think>': (draft) => `${draft}</think>`,
  'Hunyuan Hy3 <think:opensource>': (draft) => `<think:opensource>${draft}</think:opensource>`,
  'a lone </think:opensource>': (draft) => `${draft}</think:opensource>`,
};
const DRAFTED = Object.entries(REASONING).flatMap(([reasoning, wrap]) =>
  FAMILIES.map(([family, format]): [string, string, (draft: string) => string, (x: string) => string] => [
    reasoning,
    family,
    wrap,
    format,
  ]),
);

describe('reasoning draft: a call drafted in reasoning never runs', () => {
  it.each(DRAFTED)(
    '%s around a %s draft, with the real call after it: only the real call runs',
    (_r, _f, wrap, format) => {
      const raw = `${wrap(`Maybe ${format('1 + 1')} first.`)}\n${format(EXPRESSION)}`;
      expect(detect(raw)).toEqual(calls(evaluate(EXPRESSION)));
    },
  );

  it.each(DRAFTED)('%s around a %s draft, with an answer after it: nothing runs', (_r, _f, wrap, format) => {
    expect(detect(`${wrap(format(EXPRESSION))}\nIt is 84.`)).toEqual({ type: 'answer', text: 'It is 84.' });
  });

  it.each(DRAFTED)(
    '%s around a %s draft, then only a lead-in introducing it: the model is told why',
    (_r, _f, wrap, format) => {
      const result = detect(`${wrap(format(EXPRESSION))}\nLet me work it out:`);
      expect(result.type === 'malformed' && result.hint).toMatch(/^The call to evaluate was not run: it was inside/);
    },
  );

  it.each(DRAFTED)('%s around a %s draft and nothing else: the model is told why', (_r, _f, wrap, format) => {
    const result = detect(wrap(format(EXPRESSION)));
    expect(result.type).toBe('malformed');
    expect(result.type === 'malformed' && result.hint.split('\n')[0]).toMatch(/inside your reasoning/);
  });
});

describe('every family runs its own format', () => {
  it.each(FAMILIES)('%s', (_family, format) => {
    expect(detect(format(EXPRESSION))).toEqual(calls(evaluate(EXPRESSION)));
  });

  it.each(FAMILIES)('%s: with a short lead-in and leftover end tokens', (_family, format) => {
    expect(detect(`Let me compute that.\n${format(EXPRESSION)}<|im_end|>`)).toEqual(calls(evaluate(EXPRESSION)));
  });
});

describe('placement rules hold for every family', () => {
  const noCall = (raw: string): void => {
    expect(detect(raw).type, raw).not.toBe('calls');
  };

  it.each(FAMILIES)('%s: an example in an explanation is shown, not run', (_family, format) => {
    const raw = `For example, a call looks like this:\n${format(EXPRESSION)}\nThat is the syntax.`;
    expect(detect(raw).type).toBe('answer');
  });

  it.each(FAMILIES)('%s: inside thinking, nothing runs', (_family, format) => {
    expect(detect(`<think>I could send ${format(EXPRESSION)}</think>No tool is needed: it is 84.`)).toEqual({
      type: 'answer',
      text: 'No tool is needed: it is 84.',
    });
  });

  it.each(FAMILIES)('%s: in a fence of another language, it is code', (_family, format) => {
    expect(detect(`Here is the snippet:\n\`\`\`python\nreply = """${format(EXPRESSION)}"""\n\`\`\``).type).toBe(
      'answer',
    );
  });

  it.each(FAMILIES)('%s: a trailer that disowns it, an HTML comment, an <analysis> block', (_family, format) => {
    noCall(`${format(EXPRESSION)}\nThis is just an illustration, don't run it.`);
    noCall(`<!-- ${format(EXPRESSION)} -->\nNothing to do.`);
    noCall(`<analysis>\n${format(EXPRESSION)}\n</analysis>\nIt is 84.`);
  });

  it.each(FAMILIES)('quoted call: %s in a Markdown quote never runs', (_family, format) => {
    const quoted = format(EXPRESSION)
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n');
    noCall(quoted);
    noCall(`You wrote earlier:\n${quoted}\nThat was a mistake.`);
  });

  it.each(FAMILIES)(
    'forbidden call: %s the reply says not to run never runs, said before or after',
    (_family, format) => {
      noCall(`Do NOT call this yet:\n${format(EXPRESSION)}`);
      noCall(`${format(EXPRESSION)}\nDon't run this, it is only what the request would be.`);
      noCall(`Here is how the request looks on the wire:\n${format(EXPRESSION)}`);
    },
  );

  it.each(FAMILIES)(
    '%s: cut off inside its arguments, or truncated, nothing runs; the hint names it',
    (_family, format) => {
      const raw = format(EXPRESSION);
      const cut = raw.slice(0, raw.indexOf(EXPRESSION) + 4);
      const unfinished = detect(cut);
      expect(unfinished.type, cut).toBe('malformed');
      // Withheld as unfinished (not every format tells that from unreadable), it is named.
      if (unfinished.type === 'malformed' && unfinished.withheld)
        expect(unfinished.withheld.tools).toEqual(['evaluate']);
      const truncated = detectToolCalls(raw, TOOLS, { truncated: true });
      expect(truncated.type === 'malformed' && truncated.hint).toMatch(
        /^The call to evaluate was not run: your reply ended before the call was complete; [^\n]*$/,
      );
    },
  );
});

describe('format quirks', () => {
  it('harmony: <|return|>, a missing <|call|>, a fabricated tool message, the final channel', () => {
    const call = '<|start|>assistant<|channel|>commentary to=functions.evaluate<|message|>{"expression":"1"}';
    expect(detect(`${call}<|return|>`)).toEqual(calls(evaluate('1')));
    expect(
      detect(`${call}<|call|><|start|>functions.evaluate to=assistant<|channel|>commentary<|message|>2<|end|>`),
    ).toEqual(calls(evaluate('1')));
    expect(detect('<|start|>assistant<|channel|>final<|message|>Paris.<|return|>')).toEqual({
      type: 'answer',
      text: 'Paris.',
    });
  });

  it('harmony with its special tokens stripped, and a to= in prose', () => {
    expect(detect('analysisNeed it.assistantcommentary to=functions.evaluate json{"expression":"1"}')).toEqual(
      calls(evaluate('1')),
    );
    expect(detect('Send it to=functions.evaluate later.').type).toBe('answer');
  });

  it('Anthropic-style tags with a namespace prefix', () => {
    const ns = ['ant', 'ml:'].join('');
    const raw = `<${ns}function_calls><${ns}invoke name="evaluate"><${ns}parameter name="expression">1</${ns}parameter></${ns}invoke></${ns}function_calls>`;
    expect(detect(raw)).toEqual(calls(evaluate('1')));
  });

  it('DeepSeek and Kimi: underscore spellings of the tokens, and no section tokens', () => {
    expect(
      detect('<|tool_calls_begin|><|tool_call_begin|>read_file<|tool_sep|>{"path": "a"}<|tool_call_end|>'),
    ).toEqual(calls(readFile('a')));
    expect(detect('<|tool_call_begin|>functions.read_file:3<|tool_call_argument_begin|>{}<|tool_call_end|>')).toEqual(
      calls({ server: 'file', tool: 'read_file', arguments: {} }),
    );
  });

  it('GLM and Qwen3-Coder: no arguments, a missing </parameter>, markup in values', () => {
    expect(detect('<tool_call>read_file</tool_call>')).toEqual(
      calls({ server: 'file', tool: 'read_file', arguments: {} }),
    );
    expect(
      detect('<function=write_file>\n<parameter=path>\na.html\n<parameter=content>\n<b>x</b> & y\n</function>'),
    ).toEqual(calls({ server: 'file', tool: 'write_file', arguments: { path: 'a.html', content: '<b>x</b> & y' } }));
  });

  it('Gemma 4: nested objects and lists, JSON strings, and no closing token', () => {
    const raw =
      '<|tool_call>call:list_files{owner:<|"|>google<|"|>,repo:"gemma",options:{depth:2,kinds:[<|"|>file<|"|>,null],all:true}}';
    expect(detect(raw)).toEqual(
      calls({
        server: 'github',
        tool: 'list_files',
        arguments: { owner: 'google', repo: 'gemma', options: { depth: 2, kinds: ['file', null], all: true } },
      }),
    );
  });

  it('Command R7B: the answer between response tokens is shown without them', () => {
    expect(detect('<|START_THINKING|>none<|END_THINKING|><|START_RESPONSE|>Hi there.<|END_RESPONSE|>')).toEqual({
      type: 'answer',
      text: 'Hi there.',
    });
  });

  it('Functionary: >>>all text alone is an answer', () => {
    expect(detect('>>>all\nThe capital of France is Paris.').type).toBe('answer');
  });

  it('a tag named in prose is not a call, and a frame it cannot read asks again', () => {
    for (const raw of [
      'Qwen wraps calls in <tool_call> tags.',
      'Kimi opens calls with <|tool_calls_section_begin|> and closes them.',
      'Use <use_tool> or <use_mcp_tool> elements.',
    ]) {
      expect(detect(raw)).toEqual({ type: 'answer', text: raw });
    }
    const broken = detect('<|tool_call_begin|>functions.evaluate:0<|tool_call_argument_begin|>{oops}<|tool_call_end|>');
    expect(broken.type === 'malformed' && broken.hint).toContain('could not be read');
  });
});

describe('text values are typed by the schema', () => {
  it('types an integer parameter, keeps strings, unknown parameters and values of the wrong type as text', () => {
    const raw =
      '<tool_call>search_papers<arg_key>topic</arg_key><arg_value>42</arg_value><arg_key>max_results</arg_key><arg_value>3</arg_value><arg_key>extra</arg_key><arg_value>7</arg_value></tool_call>';
    expect(detect(raw)).toEqual(
      calls({ server: 'research', tool: 'search_papers', arguments: { topic: '42', max_results: 3, extra: '7' } }),
    );
    expect(detect(raw.replace('<arg_value>3<', '<arg_value>three<'))).toMatchObject({
      calls: [{ arguments: { max_results: 'three' } }],
    });
    expect(detect(raw.replace('<arg_value>3<', '<arg_value>2.5<'))).toMatchObject({
      calls: [{ arguments: { max_results: '2.5' } }],
    });
  });

  it('types an object parameter from JSON text, and DSML string="true" stays text', () => {
    const minimax =
      '<minimax:tool_call><invoke name="list_files"><parameter name="owner">a</parameter><parameter name="repo">b</parameter><parameter name="options">{"depth": 1}</parameter></invoke></minimax:tool_call>';
    expect(detect(minimax)).toMatchObject({ calls: [{ arguments: { options: { depth: 1 } } }] });
    const dsml =
      '<｜DSML｜function_calls><｜DSML｜invoke name="search_papers"><｜DSML｜parameter name="topic" string="true">x</｜DSML｜parameter><｜DSML｜parameter name="max_results" string="true">3</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>';
    expect(detect(dsml)).toMatchObject({ calls: [{ arguments: { topic: 'x', max_results: '3' } }] });
  });
});

describe('the XML form of our protocol', () => {
  it.each([
    [
      'attributes and a JSON body',
      '<use_tool server="research" tool="search_papers">{"topic": "x", "max_results": 2}</use_tool>',
    ],
    [
      'child elements and JSON arguments',
      '<use_tool><server>research</server><tool>search_papers</tool><arguments>{"topic": "x", "max_results": 2}</arguments></use_tool>',
    ],
    [
      'one child per argument, typed by the schema',
      '<use_tool server="research" tool="search_papers"><topic>x</topic><max_results>2</max_results></use_tool>',
    ],
    [
      'per-argument children inside <arguments>',
      '<use_tool><server>research</server><tool>search_papers</tool><arguments><topic>x</topic><max_results>2</max_results></arguments></use_tool>',
    ],
    [
      'a qualified tool name',
      '<use_tool tool="research.search_papers"><topic>x</topic><max_results>2</max_results></use_tool>',
    ],
  ])('%s', (_label, raw) => {
    expect(detect(raw)).toEqual(
      calls({ server: 'research', tool: 'search_papers', arguments: { topic: 'x', max_results: 2 } }),
    );
  });

  it('reads entities and raw markup characters in text, and keeps JSON bodies whole', () => {
    expect(
      detect('<use_tool server="calculator" tool="evaluate"><expression>1 &lt; 2 & 3 < 4</expression></use_tool>'),
    ).toEqual(calls(evaluate('1 < 2 & 3 < 4')));
    expect(detect('<use_tool server="calculator" tool="evaluate">{"expression": "<b>&amp;</b>"}</use_tool>')).toEqual(
      calls(evaluate('<b>&amp;</b>')),
    );
  });

  it('asks again for an element without a tool or with unreadable markup', () => {
    for (const raw of [
      '<use_tool server="calculator">{"expression": "1"}</use_tool>',
      '<use_tool server="calculator" tool="evaluate"><expression>1</wrong></use_tool>',
    ]) {
      expect(detect(raw).type, raw).toBe('malformed');
    }
  });
});

describe('hostile input in the template formats', () => {
  const MEGABYTE = 1 << 20;
  it.each([
    ['GLM openers', '<tool_call>x<arg_key>'],
    ['harmony messages', '<|channel|>commentary to=functions.x<|message|>{'],
    ['invokes', '<invoke name="a"><parameter name="b">'],
    ['Gemma calls', '<|tool_call>call:f{a:<|"|>'],
    ['XML calls', '<use_tool server="a" tool="b">'],
    ['Qwen3-Coder parameters', '<function=a>\n<parameter=b>'],
    ['DeepSeek calls', '<｜tool▁call▁begin｜>f<｜tool▁sep｜>{'],
    ['Kimi calls', '<|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{"a":'],
    ['comments', '<!--'],
    ['Functionary prefixes', '>>>a\n'],
    ['Mistral call ids', 'a[CALL_ID]b[ARGS]'],
    ['tool_code fences', '```tool_code\nf(a=1)\n```\n'],
    ['Olmo 3 wrappers', '<function_calls>f(a='],
    ['Apertus prefixes', '<|tools_prefix|>[{"a": {'],
    ['Laguna names', '<tool_call>a\n{"b": 1}'],
    ['Kimi K3 calls', '<|open|>call tool="a" index="0"<|sep|><|open|>argument key="b" type="number"<|sep|>1'],
    ['quoted lines', '> <tool_call>{"name": "a"}\n'],
    ['reasoning closers', '[THINK]<｜end▁of▁thinking｜><|inner_suffix|>'],
  ])('%s, a megabyte of them', (_label, unit) => {
    const raw = unit.repeat(Math.floor(MEGABYTE / unit.length));
    expect(['answer', 'malformed']).toContain(detect(raw).type);
  });
});

// Fragments of every template format, spliced at random: the formats' hard paths.
const PIECES = [
  ...FAMILIES.map(([, format]) => format('1')),
  '<|channel|>analysis',
  '<|channel|>commentary to=functions.evaluate ',
  '<|message|>',
  '<|call|>',
  '<|start|>assistant',
  '<｜tool▁call▁begin｜>',
  '<｜tool▁sep｜>',
  '<|tool_call_argument_begin|>',
  '<tool_call>',
  '</tool_call>',
  'evaluate',
  '<arg_key>expression</arg_key>',
  '<arg_value>',
  '</arg_value>',
  '<function=evaluate>',
  '<parameter=expression>',
  '<invoke name="evaluate">',
  '<parameter name="expression">',
  '</parameter>',
  '</invoke>',
  '<|tool_call>call:evaluate{',
  '<|"|>',
  '<use_tool server="calculator" tool="evaluate">',
  '</use_tool>',
  '>>>evaluate\n',
  '[CALL_ID]',
  '<!--',
  '-->',
  '<think>',
  '</think>',
  '[THINK]',
  '[/THINK]',
  '<｜end▁of▁thinking｜>',
  '<|tools_prefix|>',
  '<function_calls>',
  '</function_calls>',
  '<tool_sep>',
  '<|open|>call tool="evaluate" index="0"<|sep|>',
  '<|close|>think<|sep|>',
  '> ',
  '{"expression": "1"}',
  '{',
  '}',
  '"',
  '\n',
  ' ',
];

describe('random replies spliced from template fragments', () => {
  it(
    'never throws, and runs only real tools, never from a truncated reply',
    () => expectSafeDetection(fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 60 }), TOOLS, 5000),
    CPU_BOUND_MS,
  );
});

describe('the format Ollama names for the model is read first', () => {
  const own = FORMATS['olmo 3']?.(EXPRESSION) ?? '';
  const other = `Then: {"name": "read_file", "arguments": {"path": "a.md"}}`;

  it('its call runs; a call in another syntax beside it is text', () => {
    expect(detectToolCalls(`${own}\n${other}`, TOOLS, { parser: 'olmo3' })).toEqual(calls(evaluate(EXPRESSION)));
  });

  // Names from ollama/ollama's model/parsers (parsers.go and the commits adding each parser).
  it.each([
    ['minimaxm2', 'minimax'],
    ['apertus1.5', 'apertus'],
    ['deepseek', 'deepseek v3'],
  ])('parser %s: the %s call runs, a call in another syntax beside it is text', (parser, family) => {
    const format = FORMATS[family];
    expect(format).toBeDefined();
    const raw = `${format?.(EXPRESSION) ?? ''}\n${other}`;
    expect(detectToolCalls(raw, TOOLS, { parser })).toEqual(calls(evaluate(EXPRESSION)));
  });

  it('without its format in the reply, or with a parser it does not know, every format is read', () => {
    expect(detectToolCalls(other, TOOLS, { parser: 'olmo3' })).toEqual(calls(readFile('a.md')));
    expect(detectToolCalls(`${own}\n${other}`, TOOLS, { parser: 'some-new-parser' })).toEqual(
      calls(evaluate(EXPRESSION), readFile('a.md')),
    );
    expect(detectToolCalls(`${own}\n${other}`, TOOLS, { parser: '__proto__' })).toEqual(
      calls(evaluate(EXPRESSION), readFile('a.md')),
    );
  });

  it('a draft in reasoning still never runs, whatever the parser', () => {
    const raw = `<think>${own}</think>\n${FORMATS.glm?.('1') ?? ''}`;
    expect(detectToolCalls(raw, TOOLS, { parser: 'olmo3' })).toEqual(calls(evaluate('1')));
  });
});
