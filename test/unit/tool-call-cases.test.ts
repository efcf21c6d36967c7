/**
 * The tool-call corpus (../shared/toolcall-cases.jsonl with a `family` on every line, and
 * real examples of each model family's own call format): one test per line. `expect` lists
 * the calls to run in order; empty means no call may run (an answer or a correction hint);
 * `acceptNone` also accepts declining.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { detectToolCalls } from '../../src/tool-call/detector.js';
import type { ToolSpec } from '../../src/vocabulary/types.js';

/** The catalogue our servers advertise (parameter types included: template formats type text values by them). */
const CATALOGUE: Record<string, Record<string, { required: string[]; optional?: Record<string, string> }>> = {
  calculator: { evaluate: { required: ['expression'] } },
  file: {
    read_file: { required: ['path'] },
    write_file: { required: ['path', 'content'] },
    list_directory: { required: ['path'] },
    get_file_info: { required: ['path'] },
    search_files: { required: ['pattern'], optional: { path: 'string' } },
  },
  research: {
    search_papers: { required: ['topic'], optional: { max_results: 'integer' } },
    extract_info: { required: ['paper_id'] },
  },
  github: {
    get_repository: { required: ['owner', 'repo'] },
    list_files: { required: ['owner', 'repo'], optional: { path: 'string' } },
    get_file_content: { required: ['owner', 'repo', 'path'] },
    search_repositories: { required: ['query'], optional: { max_results: 'integer' } },
  },
};

/** Third-party tools with nested and typed parameters, as their servers publish them (filesystem, memory, fetch). */
const THIRD_PARTY = JSON.parse(
  readFileSync(new URL('../fixtures/third-party-tools.json', import.meta.url), 'utf8'),
) as ToolSpec[];

const OURS: ToolSpec[] = Object.entries(CATALOGUE).flatMap(([server, tools]) =>
  Object.entries(tools).map(([name, { required, optional = {} }]) => ({
    server,
    name,
    description: `${server} ${name}`,
    inputSchema: {
      type: 'object' as const,
      properties: {
        ...Object.fromEntries(required.map((key) => [key, { type: 'string' }])),
        ...Object.fromEntries(Object.entries(optional).map(([key, type]) => [key, { type }])),
      },
      required,
    },
  })),
);

const TOOLS = [...OURS, ...THIRD_PARTY];

const Case = z.object({
  id: z.string(),
  family: z.string().min(1),
  raw: z.string(),
  expect: z.array(z.object({ server: z.string(), tool: z.string(), arguments: z.record(z.string(), z.unknown()) })),
  note: z.string(),
  /** Where the format comes from: a parser, a chat template, or an issue with raw output. */
  source: z.string().optional(),
  acceptNone: z.boolean().optional(),
});

/** The model families of issues 15 and 49: each has real examples in the corpus. */
const FAMILIES = [
  'qwen3.5',
  'llama4',
  'deepseek-v4',
  'glm5',
  'kimi-k2.5',
  'kimi-k3',
  'minimax-m2',
  'minimax-m3',
  'seed',
  'apertus',
  'nemotron',
  'granite4',
  'lfm2',
  'olmo3',
  'hunyuan',
  'ernie4.5',
  'mimo',
  'step3.5',
  'laguna',
  'cogito',
  'mistral3',
  'harmony',
  'deepseek',
  'kimi',
  'glm',
  'minimax',
  'qwen3-coder',
  'gemma3-tool_code',
  'gemma4',
  'functiongemma',
  'functionary',
  'command-r',
  'mistral',
  'cline',
  'anthropic',
  'xml',
];

const cases = readFileSync(new URL('../fixtures/toolcall-cases.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => Case.parse(JSON.parse(line)));

describe('tool-call corpus', () => {
  it('has every line of the shared corpus, and examples of every family', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    expect(new Set(cases.map((item) => item.id)).size).toBe(cases.length);
    const families = new Set(cases.map((item) => item.family));
    for (const family of FAMILIES) expect(families, family).toContain(family);
  });

  for (const item of cases) {
    it(`${item.id}: ${item.note}`, () => {
      const result = detectToolCalls(item.raw, TOOLS);
      if (item.expect.length === 0 || (item.acceptNone === true && result.type !== 'calls')) {
        expect(result.type).not.toBe('calls');
        return;
      }
      expect(result).toEqual({ type: 'calls', calls: item.expect });
    });
  }
});
