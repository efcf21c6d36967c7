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
import {
  describeChecks,
  problems,
  readBaseline,
  runClientScenario,
  type ScenarioRun,
  staleExpectedFailures,
  writeExpectedFailuresYaml,
} from '../helpers/conformance-client.js';
import { HARNESS_DIR, harnessUnavailable } from '../helpers/conformance-harness.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

/** Why the harness cannot run on this Node, if it cannot (the file is then skipped, saying so). */
const unavailable = harnessUnavailable();
const BASELINE_FILE = path.join(REPO_ROOT, 'test/fixtures/conformance-client-baseline.json');
/** The harness kills the client after this; a scenario takes about 2 s here. */
const CLIENT_TIMEOUT_MS = 20_000;
/** Past this the harness itself is killed: a hang fails the test instead of stalling the suite. */
const HARNESS_TIMEOUT_MS = CLIENT_TIMEOUT_MS + 10_000;

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

const baseline = readBaseline(BASELINE_FILE);
const runs = new Map<string, ScenarioRun>();
let workDir: string;

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
    writeExpectedFailuresYaml(yaml, baseline);
    const options = {
      workDir,
      expectedFailures: yaml,
      clientTimeoutMs: CLIENT_TIMEOUT_MS,
      harnessTimeoutMs: HARNESS_TIMEOUT_MS,
    };
    // One at a time: sse-retry times the client's reconnection to within 200 ms.
    for (const scenario of baseline.scenarios) runs.set(scenario, await runClientScenario(scenario, options));
  },
  baseline.scenarios.length * HARNESS_TIMEOUT_MS + 10_000,
);

afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe.skipIf(unavailable !== undefined)(
  `MCP conformance (${baseline.harness}, client scenarios) of mcp-chat through its CLI${unavailable ? `, ${unavailable}` : ''}`,
  () => {
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
      const statuses = Object.fromEntries(
        checks.filter((check) => check.status !== 'INFO').map((c) => [c.id, c.status]),
      );
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
      const stale = staleExpectedFailures(baseline, run);
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
  },
);
