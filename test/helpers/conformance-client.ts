/**
 * One client scenario of the MCP conformance harness against mcp-chat: the harness runs
 * scripts/conformance-client.mjs (which drives the built CLI) with the scenario's server, and
 * what it recorded (checks, the client's stderr) is read back. Also the baseline both client
 * conformance tests keep: the scenarios run, and those expected to fail with why.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runConformanceHarness } from './conformance-harness.js';
import { REPO_ROOT } from './server-configs.js';

const DRIVER = path.join(REPO_ROOT, 'scripts/conformance-client.mjs');
/** `<scenario>-<ISO time with - for : and .>`, one directory per run under --output-dir (`/` in a name is a directory). */
const RESULT_DIR = /^(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

export interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
  /** The SEP-1034 checks say which default the field had and what the client sent. */
  details?: { expectedDefault?: unknown; receivedValue?: unknown };
}

export interface Baseline {
  harness: string;
  scenarios: string[];
  expectedFailures: { scenario: string; failsWith: string; reason: string }[];
}

export interface ScenarioRun {
  code: number | null;
  /** The harness's own output: its summary, and the client's exit code when it was not 0. */
  output: string;
  checks: Check[];
  /** What the driver and the CLI wrote to stderr, kept by the harness. */
  clientStderr: string;
}

export function readBaseline(file: string): Baseline {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Baseline;
}

/** POSIX shell quoting: the harness runs `--command` through a shell, with the URL appended. */
const shellQuote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;

function readResult(outputDir: string, scenario: string): Pick<ScenarioRun, 'checks' | 'clientStderr'> {
  // An `auth/x` scenario's results land in `<outputDir>/auth/x-<time>`.
  const parent = path.join(outputDir, path.dirname(scenario));
  const base = path.basename(scenario);
  const entry = (fs.existsSync(parent) ? fs.readdirSync(parent) : []).find(
    (name) => RESULT_DIR.exec(name)?.[1] === base,
  );
  if (entry === undefined) return { checks: [], clientStderr: '' };
  const read = (file: string): string => fs.readFileSync(path.join(parent, entry, file), 'utf8');
  return { checks: JSON.parse(read('checks.json')) as Check[], clientStderr: read('stderr.txt') };
}

/**
 * The harness's own baseline format (YAML), generated from ours so its exit code can be checked too.
 * Flow style, since the harness refuses a `client:` with no items under it (null, not a list).
 */
export function writeExpectedFailuresYaml(file: string, baseline: Baseline): void {
  fs.writeFileSync(file, `client: ${JSON.stringify(baseline.expectedFailures.map((entry) => entry.scenario))}\n`);
}

export async function runClientScenario(
  scenario: string,
  options: { workDir: string; expectedFailures: string; clientTimeoutMs: number; harnessTimeoutMs: number },
): Promise<ScenarioRun> {
  const outputDir = path.join(options.workDir, 'results');
  const args = [
    'client',
    '--scenario',
    scenario,
    // The driver (and so the CLI) runs on this test's Node, not on whichever `node` is first on PATH.
    '--command',
    `${shellQuote(process.execPath)} ${shellQuote(DRIVER)}`,
    '--timeout',
    String(options.clientTimeoutMs),
    '--output-dir',
    outputDir,
    '--expected-failures',
    options.expectedFailures,
  ];
  const run = await runConformanceHarness(args, options.workDir, options.harnessTimeoutMs);
  return { ...run, ...readResult(outputDir, scenario) };
}

export const problems = (checks: Check[]): Check[] =>
  checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');

export const describeChecks = (checks: Check[]): string =>
  checks.map((check) => `${check.id}: ${check.errorMessage ?? check.status}`).join('; ');

/** Baseline entries that no longer fail, or fail for another reason than the one written down. */
export function staleExpectedFailures(baseline: Baseline, run: (scenario: string) => ScenarioRun): string[] {
  return baseline.expectedFailures.flatMap((entry) => {
    const failed = problems(run(entry.scenario).checks);
    if (failed.length === 0) return [`${entry.scenario}: passes now (remove it from the baseline)`];
    const failure = describeChecks(failed);
    return failure.includes(entry.failsWith)
      ? []
      : [`${entry.scenario}: fails with "${failure}", not "${entry.failsWith}"`];
  });
}
