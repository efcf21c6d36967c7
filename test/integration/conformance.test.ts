/**
 * MCP conformance: the server scenarios of @modelcontextprotocol/conformance (its active
 * suite, run as a child process) against our GitHub server's HTTP entry on 127.0.0.1.
 * Scenarios that need the harness's own tools, resources or prompts fail by design and are
 * listed, with a reason, in test/fixtures/conformance-baseline.json; the baseline must stay
 * exact both ways (no unexpected failure, no baseline entry that now passes).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGitHub } from '../fakes/fake-github.js';
import { HARNESS_DIR, harnessUnavailable, runConformanceHarness } from '../helpers/conformance-harness.js';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { killAll, spawnNodeServer } from '../helpers/spawn-server.js';

/** Why the harness cannot run on this Node, if it cannot (the file is then skipped, saying so). */
const unavailable = harnessUnavailable();
const GITHUB_MAIN = path.join(REPO_ROOT, 'dist/servers/github/main.js');
const BASELINE_FILE = path.join(REPO_ROOT, 'test/fixtures/conformance-baseline.json');
/** The whole active suite takes about a second here; this only turns a hang into a failure. */
const HARNESS_TIMEOUT_MS = 120_000;
/** `server-<scenario>-<ISO time with - for :>`, one directory per scenario under --output-dir. */
const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

interface Baseline {
  harness: string;
  suite: string;
  expectedFailures: { scenario: string; failsWith: string; reason: string }[];
}

interface HarnessRun {
  code: number | null;
  output: string;
  /** Scenario name → its checks, read from the harness's checks.json files. */
  scenarios: Map<string, Check[]>;
}

const baseline = JSON.parse(fs.readFileSync(BASELINE_FILE, 'utf8')) as Baseline;
const fake = new FakeGitHub();
let workDir: string;
let run: HarnessRun;

/** The harness's own baseline format (YAML), generated from ours so its exit code can be checked too. */
function writeExpectedFailuresYaml(file: string): void {
  fs.writeFileSync(file, `server:\n${baseline.expectedFailures.map((entry) => `  - ${entry.scenario}\n`).join('')}`);
}

async function runHarness(url: string, outputDir: string, expectedFailures: string): Promise<HarnessRun> {
  const args = ['server', '--url', url, '--suite', baseline.suite, '--output-dir', outputDir];
  const run = await runConformanceHarness(
    [...args, '--expected-failures', expectedFailures],
    workDir,
    HARNESS_TIMEOUT_MS,
  );
  return { ...run, scenarios: readResults(outputDir) };
}

function readResults(outputDir: string): Map<string, Check[]> {
  const scenarios = new Map<string, Check[]>();
  for (const entry of fs.existsSync(outputDir) ? fs.readdirSync(outputDir) : []) {
    const match = RESULT_DIR.exec(entry);
    if (!match?.[1]) continue;
    scenarios.set(match[1], JSON.parse(fs.readFileSync(path.join(outputDir, entry, 'checks.json'), 'utf8')) as Check[]);
  }
  return scenarios;
}

const failures = (checks: Check[]): Check[] => checks.filter((check) => check.status === 'FAILURE');

function failingScenarios(): Map<string, string> {
  const failing = new Map<string, string>();
  for (const [scenario, checks] of run.scenarios) {
    const failed = failures(checks);
    if (failed.length > 0)
      failing.set(scenario, failed.map((check) => `${check.id}: ${check.errorMessage ?? 'failed'}`).join('; '));
  }
  return failing;
}

beforeAll(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-')));
  // No scenario reaches GitHub, but if one did it would stay on 127.0.0.1.
  await fake.start();
  const github = await spawnNodeServer(
    [GITHUB_MAIN, '--port', '0'],
    { GITHUB_API_URL: fake.url },
    /listening on (http:\/\/\S+)/,
  );
  const yaml = path.join(workDir, 'expected-failures.yml');
  writeExpectedFailuresYaml(yaml);
  run = await runHarness(github.ready, path.join(workDir, 'results'), yaml);
}, HARNESS_TIMEOUT_MS + 10_000);

afterAll(async () => {
  await killAll();
  await fake.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe.skipIf(unavailable !== undefined)(
  `MCP conformance (${baseline.harness}, ${baseline.suite} suite) of the GitHub server over HTTP${unavailable ? `, ${unavailable}` : ''}`,
  () => {
    it('runs the harness version the baseline was made for, and every scenario leaves its checks', () => {
      const installed = JSON.parse(fs.readFileSync(path.join(HARNESS_DIR, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
      };
      expect(`${installed.name}@${installed.version}`).toBe(baseline.harness);
      expect(run.scenarios.size).toBeGreaterThan(0);
      expect(run.output).toMatch(new RegExp(`Total: \\d+ passed, \\d+ failed`));
      for (const [scenario, checks] of run.scenarios) expect(checks.length, scenario).toBeGreaterThan(0);
    });

    it('passes the scenarios about the protocol itself', () => {
      const passed = [...run.scenarios]
        .filter(([, checks]) => failures(checks).length === 0)
        .map(([scenario]) => scenario);
      expect(passed).toEqual(
        expect.arrayContaining([
          'server-initialize',
          'ping',
          'tools-list',
          'server-sse-multiple-streams',
          'dns-rebinding-protection',
        ]),
      );
    });

    it('no scenario outside the baseline fails', () => {
      const expected = new Set(baseline.expectedFailures.map((entry) => entry.scenario));
      const unexpected = [...failingScenarios()].filter(([scenario]) => !expected.has(scenario));
      expect(Object.fromEntries(unexpected)).toEqual({});
    });

    it('every baseline scenario was run and still fails, for the reason the baseline gives', () => {
      const failing = failingScenarios();
      const stale = baseline.expectedFailures.flatMap((entry) => {
        if (!run.scenarios.has(entry.scenario))
          return [`${entry.scenario}: not run by the harness (remove it from the baseline)`];
        const failure = failing.get(entry.scenario);
        if (failure === undefined) return [`${entry.scenario}: passes now (remove it from the baseline)`];
        return failure.includes(entry.failsWith)
          ? []
          : [`${entry.scenario}: fails with "${failure}", not "${entry.failsWith}"`];
      });
      expect(stale).toEqual([]);
      for (const entry of baseline.expectedFailures) expect(entry.reason.length, entry.scenario).toBeGreaterThan(20);
    });

    it('the harness agrees: exit 0 with the baseline as its --expected-failures', () => {
      expect(run.output).not.toContain('Unexpected failures');
      expect(run.code, run.output.slice(-2_000)).toBe(0);
    });
  },
);
