/**
 * Benchmark 6, detector accuracy: precision and recall of the tool-call detector on the
 * corpus (test/fixtures/toolcall-cases.jsonl), with the tool catalogue our four servers
 * really advertise, against a strict JSON-only detector, overall and per model family
 * (each case's `family`: json, harmony, deepseek, glm…). Target: both 1.0.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { detectToolCalls } from '../src/tool-call/detector.js';
import type { ToolCall, ToolSpec } from '../src/vocabulary/types.js';
import type { StdioServerConfig } from '../src/config/types.js';
import { createLogger } from '../src/shared/log.js';
import { McpHost } from '../src/mcp/host.js';
import { PACKAGE_ROOT } from '../src/shared/paths.js';
import { naiveDetect } from './lib/naive-detector.js';
import { check, row, benchmarkResult, type BenchmarkResult } from './lib/results.js';
import { roundTo, summarize } from './lib/stats.js';
import type { Workspace } from './lib/workspace.js';

const CASES_PATH = path.join(PACKAGE_ROOT, 'test/fixtures/toolcall-cases.jsonl');
/** Tools with nested and typed parameters, as the filesystem, memory and fetch servers publish them. */
const THIRD_PARTY_PATH = path.join(PACKAGE_ROOT, 'test/fixtures/third-party-tools.json');
/** Timing repeats per case, for the detector's cost per reply. */
const TIMING_REPEATS = 50;

const Case = z.object({
  id: z.string(),
  family: z.string(),
  raw: z.string(),
  expect: z.array(z.object({ server: z.string(), tool: z.string(), arguments: z.record(z.string(), z.unknown()) })),
  acceptNone: z.boolean().optional(),
});
type Case = z.infer<typeof Case>;

interface Score {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  wrong: string[];
}

/** A case is a positive when calls are expected; running other calls than expected is both a false positive and a miss. */
function score(cases: Case[], detect: (raw: string) => ToolCall[]): Score {
  const result: Score = { truePositives: 0, falsePositives: 0, falseNegatives: 0, wrong: [] };
  for (const item of cases) {
    const calls = detect(item.raw);
    const expected = item.expect.length > 0;
    if (calls.length === 0) {
      if (expected && item.acceptNone !== true) {
        result.falseNegatives += 1;
        result.wrong.push(item.id);
      }
    } else if (expected && isDeepStrictEqual(calls, item.expect)) {
      result.truePositives += 1;
    } else {
      result.falsePositives += 1;
      if (expected) result.falseNegatives += 1;
      result.wrong.push(item.id);
    }
  }
  return result;
}

const precision = (s: Score): number => s.truePositives / Math.max(1, s.truePositives + s.falsePositives);
const recall = (s: Score): number => s.truePositives / Math.max(1, s.truePositives + s.falseNegatives);
// A family of negatives only has no recall, and one where nothing ran has no precision: n/a, not 0.
const precisionFigure = (s: Score): string =>
  s.truePositives + s.falsePositives === 0 ? 'n/a' : precision(s).toFixed(2);
const recallFigure = (s: Score): string => (s.truePositives + s.falseNegatives === 0 ? 'n/a' : recall(s).toFixed(2));
const figures = (s: Score): string => `${precisionFigure(s)} / ${recallFigure(s)}`;

/** One side figure per family: `precision / recall (cases; baseline precision / recall)`. */
function perFamily(cases: Case[], detect: (raw: string) => ToolCall[]): Record<string, string> {
  const families = [...new Set(cases.map((item) => item.family))].sort();
  return Object.fromEntries(
    families.map((family) => {
      const members = cases.filter((item) => item.family === family);
      const ours = score(members, detect);
      const naive = score(members, naiveDetect);
      const wrong = ours.wrong.length > 0 ? `; wrong: ${ours.wrong.join(', ')}` : '';
      return [
        `family ${family}: precision / recall`,
        `${figures(ours)} (${members.length} cases; baseline ${figures(naive)}${wrong})`,
      ];
    }),
  );
}

/** The catalogue the corpus assumes, as our servers advertise it: the three local ones and our GitHub server over stdio. */
async function realCatalogue(workspace: Workspace): Promise<ToolSpec[]> {
  const servers = workspace.config('http://127.0.0.1:9').servers;
  const calculator = servers.find(
    (server): server is StdioServerConfig => server.kind === 'stdio' && server.name === 'calculator',
  );
  if (!calculator) throw new Error('no calculator entry');
  const github: StdioServerConfig = {
    ...calculator,
    name: 'github',
    args: [path.join(PACKAGE_ROOT, 'dist/servers/github/main.js'), '--stdio'],
  };
  const host = new McpHost([...servers, github], { log: createLogger({ level: 'silent', file: null }) });
  await host.start();
  const tools = host.listTools();
  await host.close();
  return tools;
}

export async function benchDetector(workspace: Workspace): Promise<BenchmarkResult> {
  const began = performance.now();
  const thirdParty = JSON.parse(fs.readFileSync(THIRD_PARTY_PATH, 'utf8')) as ToolSpec[];
  const tools = [...(await realCatalogue(workspace)), ...thirdParty];
  const lines = fs
    .readFileSync(CASES_PATH, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const cases = lines.map((line) => Case.parse(JSON.parse(line)));
  const ours = (raw: string): ToolCall[] => {
    const result = detectToolCalls(raw, tools);
    return result.type === 'calls' ? result.calls : [];
  };
  const detector = score(cases, ours);
  const naive = score(cases, naiveDetect);
  const perReply = cases.flatMap((item) =>
    Array.from({ length: TIMING_REPEATS }, () => {
      const start = performance.now();
      ours(item.raw);
      return (performance.now() - start) * 1000;
    }),
  );
  const single = (value: number) => summarize([value]);
  const details = {
    cases: cases.length,
    'true positives / false positives / misses': `${detector.truePositives} / ${detector.falsePositives} / ${detector.falseNegatives}`,
    'baseline true positives / false positives / misses': `${naive.truePositives} / ${naive.falsePositives} / ${naive.falseNegatives}`,
    'wrong cases': detector.wrong.join(', ') || 'none',
    'baseline wrong cases': naive.wrong.length,
    'detector time per reply, median µs': roundTo(summarize(perReply).median, 1),
  };
  const rows = [
    row({
      name: 'precision',
      unit: '',
      measured: single(precision(detector)),
      baselineLabel: 'strict JSON-only detector',
      baseline: single(precision(naive)),
      checks: () => [check('precision', precision(detector), '>=', 1)],
      details,
    }),
    row({
      name: 'recall',
      unit: '',
      measured: single(recall(detector)),
      baselineLabel: 'strict JSON-only detector',
      baseline: single(recall(naive)),
      checks: () => [check('recall', recall(detector), '>=', 1)],
      details: perFamily(cases, ours),
    }),
  ];
  return benchmarkResult(
    {
      id: 'detector',
      title: 'Tool-call detector accuracy',
      howMeasured:
        `Every line of test/fixtures/toolcall-cases.jsonl (a copy of ../shared/toolcall-cases.jsonl) through \`detectToolCalls\`, ` +
        'with the tools the calculator, file, research and GitHub servers list when started, and the published schemas of ' +
        "three third-party tools with nested and typed parameters (test/fixtures/third-party-tools.json: filesystem's " +
        "edit_file, memory's create_entities, fetch). A case that expects calls is a " +
        'true positive when exactly those calls (in order, with those arguments) are detected; any other detected calls are a ' +
        'false positive (and a miss when calls were expected); nothing detected where calls were expected is a miss, unless the ' +
        'case accepts declining. Baseline: a detector that accepts only the exact JSON object the system prompt asks for. ' +
        "The recall row's side figures give precision and recall per family (n/a: no case of that kind).",
      warmup: 'none (deterministic)',
      runs: `1 pass over the corpus; ${TIMING_REPEATS} timing passes`,
    },
    rows,
    began,
  );
}
