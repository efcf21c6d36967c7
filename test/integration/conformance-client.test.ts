/**
 * MCP conformance of mcp-chat as a client: client scenarios of @modelcontextprotocol/conformance,
 * each a harness child process that starts the scenario's server on 127.0.0.1 and runs
 * scripts/conformance-client.mjs, which drives our built CLI against it. Scenarios expected to
 * fail are listed, with a reason, in test/fixtures/conformance-client-baseline.json; the baseline
 * must stay exact both ways. A WARNING fails a scenario here, as it does in the harness's baseline check.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_DIR, runConformanceHarness } from '../helpers/conformance-harness.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

const DRIVER = path.join(REPO_ROOT, 'scripts/conformance-client.mjs');
const BASELINE_FILE = path.join(REPO_ROOT, 'test/fixtures/conformance-client-baseline.json');
/** The harness kills the client after this; a scenario takes about 2 s here. */
const CLIENT_TIMEOUT_MS = 20_000;
/** Past this the harness itself is killed: a hang fails the test instead of stalling the suite. */
const HARNESS_TIMEOUT_MS = CLIENT_TIMEOUT_MS + 10_000;
/** `<scenario>-<ISO time with - for : and .>`, one directory per run under --output-dir. */
const RESULT_DIR = /^(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/**
 * Checks that must be present, each SUCCESS, for a scenario to pass: a client that never connects
 * leaves no `initialize` check at all, and the harness alone would call that a pass.
 */
const REQUIRED_CHECKS: Record<string, string[]> = {
  initialize: ['mcp-client-initialization'],
  tools_call: ['tool-add-numbers'],
  'sse-retry': ['client-sse-graceful-reconnect', 'client-sse-retry-timing', 'client-sse-last-event-id'],
  'elicitation-sep1034-client-defaults': [
    'client-elicitation-sep1034-string-default',
    'client-elicitation-sep1034-integer-default',
    'client-elicitation-sep1034-number-default',
    'client-elicitation-sep1034-enum-default',
    'client-elicitation-sep1034-boolean-default',
  ],
};

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
  /** The SEP-1034 checks say which default the field had and what the client sent. */
  details?: { expectedDefault?: unknown; receivedValue?: unknown };
}

interface Baseline {
  harness: string;
  scenarios: string[];
  expectedFailures: { scenario: string; failsWith: string; reason: string }[];
}

interface ScenarioRun {
  code: number | null;
  /** The harness's own output: its summary, and the client's exit code when it was not 0. */
  output: string;
  checks: Check[];
  /** What the driver and the CLI wrote to stderr, kept by the harness. */
  clientStderr: string;
}

const baseline = JSON.parse(fs.readFileSync(BASELINE_FILE, 'utf8')) as Baseline;
const runs = new Map<string, ScenarioRun>();
let workDir: string;

/** POSIX shell quoting: the harness runs `--command` through a shell, with the URL appended. */
const shellQuote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;

function readResult(outputDir: string, scenario: string): Pick<ScenarioRun, 'checks' | 'clientStderr'> {
  const entry = (fs.existsSync(outputDir) ? fs.readdirSync(outputDir) : []).find(
    (name) => RESULT_DIR.exec(name)?.[1] === scenario,
  );
  if (entry === undefined) return { checks: [], clientStderr: '' };
  const read = (file: string): string => fs.readFileSync(path.join(outputDir, entry, file), 'utf8');
  return { checks: JSON.parse(read('checks.json')) as Check[], clientStderr: read('stderr.txt') };
}

/**
 * The harness's own baseline format (YAML), generated from ours so its exit code can be checked too.
 * Flow style, since the harness refuses a `client:` with no items under it (null, not a list).
 */
function writeExpectedFailuresYaml(file: string): void {
  fs.writeFileSync(file, `client: ${JSON.stringify(baseline.expectedFailures.map((entry) => entry.scenario))}\n`);
}

async function runScenario(scenario: string, expectedFailures: string): Promise<ScenarioRun> {
  const outputDir = path.join(workDir, 'results');
  const args = [
    'client',
    '--scenario',
    scenario,
    // The driver (and so the CLI) runs on this test's Node, not on whichever `node` is first on PATH.
    '--command',
    `${shellQuote(process.execPath)} ${shellQuote(DRIVER)}`,
    '--timeout',
    String(CLIENT_TIMEOUT_MS),
    '--output-dir',
    outputDir,
    '--expected-failures',
    expectedFailures,
  ];
  const run = await runConformanceHarness(args, workDir, HARNESS_TIMEOUT_MS);
  return { ...run, ...readResult(outputDir, scenario) };
}

const problems = (checks: Check[]): Check[] =>
  checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');

const describeChecks = (checks: Check[]): string =>
  checks.map((check) => `${check.id}: ${check.errorMessage ?? check.status}`).join('; ');

const expectedToFail = new Set(baseline.expectedFailures.map((entry) => entry.scenario));
const expectedToPass = baseline.scenarios.filter((scenario) => !expectedToFail.has(scenario));

function run(scenario: string): ScenarioRun {
  const result = runs.get(scenario);
  if (result === undefined) throw new Error(`scenario ${scenario} was not run`);
  return result;
}

beforeAll(
  async () => {
    workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-client-')));
    const yaml = path.join(workDir, 'expected-failures.yml');
    writeExpectedFailuresYaml(yaml);
    // One at a time: sse-retry times the client's reconnection to within 200 ms.
    for (const scenario of baseline.scenarios) runs.set(scenario, await runScenario(scenario, yaml));
  },
  baseline.scenarios.length * HARNESS_TIMEOUT_MS + 10_000,
);

afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe(`MCP conformance (${baseline.harness}, client scenarios) of mcp-chat through its CLI`, () => {
  it('runs the harness version the baseline was made for, and every scenario leaves its checks', () => {
    const installed = JSON.parse(fs.readFileSync(path.join(HARNESS_DIR, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    expect(`${installed.name}@${installed.version}`).toBe(baseline.harness);
    expect(Object.keys(REQUIRED_CHECKS).sort()).toEqual([...baseline.scenarios].sort());
    for (const scenario of baseline.scenarios) {
      const { checks, output } = run(scenario);
      expect(checks.length, `${scenario}:\n${output}`).toBeGreaterThan(0);
      expect(output, scenario).not.toContain('timed out');
    }
  });

  it.each(expectedToPass)('%s: every check passes, and the client exits 0', (scenario) => {
    const { checks, output, clientStderr } = run(scenario);
    const context = `${output.slice(-2_000)}\nclient stderr:\n${clientStderr.slice(-3_000)}`;
    expect(describeChecks(problems(checks)), context).toBe('');
    const statuses = Object.fromEntries(checks.filter((check) => check.status !== 'INFO').map((c) => [c.id, c.status]));
    const required = REQUIRED_CHECKS[scenario] ?? [];
    expect(statuses, context).toEqual(Object.fromEntries(required.map((id) => [id, 'SUCCESS'])));
    expect(output, context).not.toContain('Client exited with code');
  });

  it('answers the SEP-1034 form with the defaults themselves, not just values of the right type', () => {
    const fields = run('elicitation-sep1034-client-defaults').checks.flatMap(({ id, details }) =>
      details && 'expectedDefault' in details ? [[id, details.receivedValue, details.expectedDefault]] : [],
    );
    expect(fields).toHaveLength(REQUIRED_CHECKS['elicitation-sep1034-client-defaults']?.length ?? 0);
    for (const [id, received, expected] of fields) expect(received, String(id)).toEqual(expected);
  });

  it('every baseline scenario still fails, for the reason the baseline gives', () => {
    const stale = baseline.expectedFailures.flatMap((entry) => {
      const failed = problems(run(entry.scenario).checks);
      if (failed.length === 0) return [`${entry.scenario}: passes now (remove it from the baseline)`];
      const failure = describeChecks(failed);
      return failure.includes(entry.failsWith)
        ? []
        : [`${entry.scenario}: fails with "${failure}", not "${entry.failsWith}"`];
    });
    expect(stale).toEqual([]);
    for (const entry of baseline.expectedFailures) {
      expect(baseline.scenarios, entry.scenario).toContain(entry.scenario);
      expect(entry.reason.length, entry.scenario).toBeGreaterThan(20);
    }
  });

  it('the harness agrees: exit 0 with the baseline as its --expected-failures', () => {
    for (const scenario of baseline.scenarios) {
      const { code, output } = run(scenario);
      expect(output, scenario).toContain('Baseline check passed');
      expect(code, `${scenario}:\n${output.slice(-2_000)}`).toBe(0);
    }
  });
});
