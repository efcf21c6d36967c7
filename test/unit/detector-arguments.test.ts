/**
 * Nested and typed arguments on real third-party tools (issue 49), in every format whose
 * values are text: the filesystem server's `edit_file` (an array of objects and a boolean),
 * the memory server's `create_entities` (objects holding arrays), a number; and the values
 * that must stay text: JSON documents and code inside string arguments, unicode, Windows paths.
 */
import { describe, expect, it } from 'vitest';
import { type DetectResult, detectToolCalls } from '../../src/tool-call/detector.js';
import type { ToolSpec } from '../../src/vocabulary/types.js';

const REVIEW_COMMENT = { path: { type: 'string' }, line: { type: 'number' }, body: { type: 'string' } };
const REVIEW = {
  pullNumber: { type: 'number' },
  event: { type: 'string' },
  comments: { type: 'array', items: { type: 'object', properties: REVIEW_COMMENT } },
};

/** As servers/filesystem and servers/memory of modelcontextprotocol/servers advertise them. */
const TOOLS: ToolSpec[] = [
  {
    server: 'filesystem',
    name: 'edit_file',
    description: 'Make line-based edits to a text file.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        edits: {
          type: 'array',
          items: {
            type: 'object',
            properties: { oldText: { type: 'string' }, newText: { type: 'string' } },
            required: ['oldText', 'newText'],
          },
        },
        dryRun: { type: 'boolean', default: false },
      },
      required: ['path', 'edits'],
    },
  },
  {
    server: 'filesystem',
    name: 'write_file',
    description: 'Create or overwrite a file.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    },
  },
  {
    server: 'memory',
    name: 'create_entities',
    description: 'Create entities in the knowledge graph.',
    inputSchema: {
      type: 'object',
      properties: {
        entities: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              entityType: { type: 'string' },
              observations: { type: 'array', items: { type: 'string' } },
            },
          },
        },
      },
      required: ['entities'],
    },
  },
  {
    // As github/github-mcp-server advertised it: review comments with a line number each.
    server: 'github',
    name: 'create_pull_request_review',
    description: 'Create a review on a pull request.',
    inputSchema: { type: 'object', properties: REVIEW, required: ['pullNumber', 'event'] },
  },
  {
    server: 'audio',
    name: 'set_volume',
    description: 'Set the volume.',
    inputSchema: {
      type: 'object',
      properties: { level: { type: 'number' }, muted: { type: ['boolean', 'null'] } },
      required: ['level'],
    },
  },
];

type Params = [string, string][];

/** MiniMax M3's namespace token, printed before every tag of its format. */
const M3 = ']<]minimax[>[';

/** One call in each format whose argument values are template text, typed later by the schema. */
const TEXT_FORMATS: Record<string, (name: string, params: Params) => string> = {
  glm: (name, params) =>
    `<tool_call>${name}\n${params.map(([k, v]) => `<arg_key>${k}</arg_key>\n<arg_value>${v}</arg_value>\n`).join('')}</tool_call>`,
  'qwen xml (Qwen3.5, Nemotron 3, Step-3.5)': (name, params) =>
    `<tool_call>\n<function=${name}>\n${params.map(([k, v]) => `<parameter=${k}>\n${v}\n</parameter>\n`).join('')}</function>\n</tool_call>`,
  minimax: (name, params) =>
    `<minimax:tool_call>\n<invoke name="${name}">\n${params.map(([k, v]) => `<parameter name="${k}">${v}</parameter>\n`).join('')}</invoke>\n</minimax:tool_call>`,
  'deepseek dsml, untyped': (name, params) =>
    `<｜｜DSML｜｜tool_calls>\n<｜｜DSML｜｜invoke name="${name}">\n${params.map(([k, v]) => `<｜｜DSML｜｜parameter name="${k}">${v}</｜｜DSML｜｜parameter>\n`).join('')}</｜｜DSML｜｜invoke>\n</｜｜DSML｜｜tool_calls>`,
  seed: (name, params) =>
    `<seed:tool_call>\n<function=${name}>\n${params.map(([k, v]) => `<parameter=${k}>${v}</parameter>\n`).join('')}</function>\n</seed:tool_call>`,
  'minimax m3 (namespaced elements)': (name, params) =>
    `${M3}<tool_call>\n${M3}<invoke name="${name}">\n${params.map(([k, v]) => `${M3}<${k}>${v}${M3}</${k}>\n`).join('')}${M3}</invoke>\n${M3}</tool_call>`,
  'hunyuan v3': (name, params) =>
    `<tool_calls><tool_call>${name}<tool_sep>${params.map(([k, v]) => `<arg_key>${k}</arg_key><arg_value>${v}</arg_value>`).join('')}</tool_call></tool_calls>`,
};
const FORMATS = Object.entries(TEXT_FORMATS);

const detect = (raw: string): DetectResult => detectToolCalls(raw, TOOLS);
const one = (server: string, tool: string, args: Record<string, unknown>): DetectResult => ({
  type: 'calls',
  calls: [{ server, tool, arguments: args }],
});

const EDITS = [
  { oldText: 'const a = "x";', newText: 'const a = "y";' },
  { oldText: 'return a < b && c;', newText: 'return a <= b;' },
];
const ENTITIES = [
  { name: 'Zoë Åkesson', entityType: 'person', observations: ['speaks Svenska', 'likes 🍵'] },
  { name: '東京', entityType: 'city', observations: [] },
];

describe('typed by the input schema in every text-valued format', () => {
  it.each(FORMATS)('%s: an array of objects and a boolean (filesystem edit_file)', (_format, format) => {
    const raw = format('edit_file', [
      ['path', 'src/app.ts'],
      ['edits', JSON.stringify(EDITS)],
      ['dryRun', 'true'],
    ]);
    expect(detect(raw)).toEqual(one('filesystem', 'edit_file', { path: 'src/app.ts', edits: EDITS, dryRun: true }));
  });

  it.each(FORMATS)('%s: objects holding arrays, with unicode (memory create_entities)', (_format, format) => {
    const raw = format('create_entities', [['entities', JSON.stringify(ENTITIES, null, 2)]]);
    expect(detect(raw)).toEqual(one('memory', 'create_entities', { entities: ENTITIES }));
  });

  it.each(FORMATS)('%s: a number, and a boolean-or-null', (_format, format) => {
    const raw = format('set_volume', [
      ['level', '0.75'],
      ['muted', 'false'],
    ]);
    expect(detect(raw)).toEqual(one('audio', 'set_volume', { level: 0.75, muted: false }));
  });

  it.each(FORMATS)('%s: a value that is not of the schema type stays the text written', (_format, format) => {
    const raw = format('set_volume', [['level', 'loud']]);
    expect(detect(raw)).toEqual(one('audio', 'set_volume', { level: 'loud' }));
  });
});

describe('MiniMax M3 nested elements are typed by the schema, as JSON values are elsewhere', () => {
  const element = (name: string, inner: string): string => `${M3}<${name}>${inner}${M3}</${name}>`;
  const comment = (path: string, line: string, body: string): string =>
    element('item', element('path', path) + element('line', line) + element('body', body));

  it('numbers inside an array of objects; text where the schema says text or the value is no number', () => {
    const comments = comment('src/a.ts', '12', 'rename this') + comment('src/b.ts', 'top', '42');
    const raw = `${M3}<tool_call>${M3}<invoke name="create_pull_request_review">${element('pullNumber', '7')}${element('event', 'COMMENT')}${element('comments', comments)}${M3}</invoke>${M3}</tool_call>`;
    expect(detect(raw)).toEqual(
      one('github', 'create_pull_request_review', {
        pullNumber: 7,
        event: 'COMMENT',
        comments: [
          { path: 'src/a.ts', line: 12, body: 'rename this' },
          { path: 'src/b.ts', line: 'top', body: '42' },
        ],
      }),
    );
  });
});

describe('string arguments stay text in every text-valued format', () => {
  const CODE = 'def greet(name):\n    print(f"say \\"hi\\" to {name}")\n    return {"ok": True}';
  const DOCUMENT = JSON.stringify({ name: 'demo', scripts: { test: 'vitest run' }, private: true }, null, 2);

  it.each(FORMATS)('%s: multi-line code with escaped quotes', (_format, format) => {
    const raw = format('write_file', [
      ['path', 'greet.py'],
      ['content', CODE],
    ]);
    expect(detect(raw)).toEqual(one('filesystem', 'write_file', { path: 'greet.py', content: CODE }));
  });

  it.each(FORMATS)('%s: a JSON document inside a string argument', (_format, format) => {
    const raw = format('write_file', [
      ['path', 'package.json'],
      ['content', DOCUMENT],
    ]);
    expect(detect(raw)).toEqual(one('filesystem', 'write_file', { path: 'package.json', content: DOCUMENT }));
  });

  it.each(FORMATS)('%s: an unescaped Windows path with unicode', (_format, format) => {
    const path = 'C:\\Users\\zoë\\Documents\\notes\\todo.md';
    const raw = format('write_file', [
      ['path', path],
      ['content', 'done'],
    ]);
    expect(detect(raw)).toEqual(one('filesystem', 'write_file', { path, content: 'done' }));
  });
});

describe('JSON-valued formats keep the JSON types', () => {
  it('Apertus: nested arrays of objects and a boolean', () => {
    const raw = `<|tools_prefix|>[{"edit_file": ${JSON.stringify({ path: 'a.ts', edits: EDITS, dryRun: false })}}]<|tools_suffix|>`;
    expect(detect(raw)).toEqual(one('filesystem', 'edit_file', { path: 'a.ts', edits: EDITS, dryRun: false }));
  });

  it('Olmo 3: Python literals become JSON values', () => {
    const raw = `<function_calls>edit_file(path="a.ts", edits=[{"oldText": "x", "newText": "y"}], dryRun=True)</function_calls>`;
    expect(detect(raw)).toEqual(
      one('filesystem', 'edit_file', { path: 'a.ts', edits: [{ oldText: 'x', newText: 'y' }], dryRun: true }),
    );
  });

  it('DSML string="false": JSON as written, string="true": text as written', () => {
    const raw =
      '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="edit_file">\n' +
      '<｜DSML｜parameter name="path" string="true">["not", "a list"]</｜DSML｜parameter>\n' +
      `<｜DSML｜parameter name="edits" string="false">${JSON.stringify(EDITS)}</｜DSML｜parameter>\n` +
      '</｜DSML｜invoke>\n</｜DSML｜tool_calls>';
    expect(detect(raw)).toEqual(one('filesystem', 'edit_file', { path: '["not", "a list"]', edits: EDITS }));
  });

  it('escaped and unescaped Windows paths in a JSON call', () => {
    const escaped = '{"name": "write_file", "arguments": {"path": "C:\\\\Users\\\\zoe\\\\a.txt", "content": "x"}}';
    const unescaped = '{"name": "write_file", "arguments": {"path": "C:\\Users\\zoe\\a.txt", "content": "x"}}';
    const expected = one('filesystem', 'write_file', { path: 'C:\\Users\\zoe\\a.txt', content: 'x' });
    expect(detect(escaped)).toEqual(expected);
    expect(detect(unescaped)).toEqual(expected);
  });
});
