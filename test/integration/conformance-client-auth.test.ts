/**
 * MCP conformance of mcp-chat's OAuth client: the harness's client auth scenarios (metadata
 * discovery, dynamic and pre-registration, CIMD, scope selection and step-up, token endpoint
 * authentication, resource indicators, 2025-03-26 back-compat, client credentials). For each, the
 * harness starts an OAuth-protected server on 127.0.0.1 and runs scripts/conformance-client.mjs,
 * which runs `mcp-chat auth` with a stand-in browser and then a `call` on the stored token.
 * Scenarios expected to fail are in test/fixtures/conformance-client-auth-baseline.json, exact
 * both ways; a WARNING fails a scenario here, as it does in the harness's baseline check.
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
const BASELINE_FILE = path.join(REPO_ROOT, 'test/fixtures/conformance-client-auth-baseline.json');
/** A scenario runs the CLI two to four times (about 5 s alone); room for a loaded 2-core machine. */
const CLIENT_TIMEOUT_MS = 45_000;
const HARNESS_TIMEOUT_MS = CLIENT_TIMEOUT_MS + 10_000;
/** Scenarios run this many at a time: none of them times the client. */
const PARALLEL = 2;

const DISCOVERY = ['authorization-server-metadata', 'client-registration', 'authorization-request', 'token-request'];
const RESOURCE = ['resource-parameter-in-authorization', 'resource-parameter-in-token'];

/**
 * Checks that must be there, each SUCCESS, besides no check failing or warning: the harness adds a
 * failure for some missing checks, not for all (a client that never authorises leaves few checks).
 */
const REQUIRED_CHECKS: Record<string, string[]> = {
  'auth/metadata-default': ['prm-pathbased-requested', ...DISCOVERY, 'valid-bearer-token'],
  'auth/metadata-var1': ['prm-pathbased-requested', ...DISCOVERY, 'valid-bearer-token'],
  'auth/metadata-var2': [...DISCOVERY, 'valid-bearer-token'],
  'auth/metadata-var3': [...DISCOVERY, 'valid-bearer-token'],
  'auth/basic-cimd': ['cimd-client-id-used', 'pkce-verifier-matches-challenge', 'valid-bearer-token'],
  'auth/scope-from-www-authenticate': ['scope-from-www-authenticate', 'valid-bearer-token'],
  'auth/scope-from-scopes-supported': ['scope-from-scopes-supported', 'valid-bearer-token'],
  'auth/scope-omitted-when-undefined': ['scope-omitted-when-undefined', 'valid-bearer-token'],
  'auth/scope-step-up': ['scope-step-up-initial', 'scope-step-up-escalation', 'valid-bearer-token'],
  'auth/scope-retry-limit': ['scope-retry-limit'],
  'auth/token-endpoint-auth-basic': ['token-endpoint-auth-method', ...RESOURCE],
  'auth/token-endpoint-auth-post': ['token-endpoint-auth-method', ...RESOURCE],
  'auth/token-endpoint-auth-none': ['token-endpoint-auth-method', ...RESOURCE],
  'auth/resource-mismatch': ['resource-mismatch-rejected'],
  'auth/pre-registration': ['pre-registration-auth', 'valid-bearer-token'],
  'auth/2025-03-26-oauth-metadata-backcompat': [...DISCOVERY, 'valid-bearer-token'],
  'auth/2025-03-26-oauth-endpoint-fallback': ['client-registration', 'authorization-request', 'token-request'],
  'auth/client-credentials-jwt': ['client-credentials-jwt-verified', 'valid-bearer-token'],
  'auth/client-credentials-basic': ['client-credentials-basic-auth', 'valid-bearer-token'],
  'auth/offline-access-scope': ['sep-2207-client-metadata-grant-types', 'valid-bearer-token'],
  'auth/offline-access-not-supported': ['sep-2207-offline-access-not-requested', 'valid-bearer-token'],
  'auth/cross-app-access-complete-flow': [],
};

/** Scenarios where the right thing is to fail (`auth` exits 1); every other client exits 0. */
const CLIENT_FAILS: Record<string, string> = {
  'auth/scope-retry-limit': 'still refuses after 3 authorisations (it asks for scope "mcp:admin")',
  'auth/resource-mismatch': 'Protected resource https://evil.example.com/mcp does not match',
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
    workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-auth-')));
    const yaml = path.join(workDir, 'expected-failures.yml');
    writeExpectedFailuresYaml(yaml, baseline);
    const options = {
      workDir,
      expectedFailures: yaml,
      clientTimeoutMs: CLIENT_TIMEOUT_MS,
      harnessTimeoutMs: HARNESS_TIMEOUT_MS,
    };
    const queue = [...baseline.scenarios];
    const worker = async (): Promise<void> => {
      for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift())
        runs.set(scenario, await runClientScenario(scenario, options));
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
  },
  Math.ceil(baseline.scenarios.length / PARALLEL) * HARNESS_TIMEOUT_MS + 10_000,
);

afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe.skipIf(unavailable !== undefined)(
  `MCP conformance (${baseline.harness}, client auth scenarios) of mcp-chat through its CLI${unavailable ? `, ${unavailable}` : ''}`,
  () => {
    it('runs the harness version the baseline was made for, every auth scenario, each leaving its checks', async () => {
      const installed = JSON.parse(fs.readFileSync(path.join(HARNESS_DIR, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
      };
      expect(`${installed.name}@${installed.version}`).toBe(baseline.harness);
      expect(Object.keys(REQUIRED_CHECKS).sort()).toEqual([...baseline.scenarios].sort());
      const { runConformanceHarness } = await import('../helpers/conformance-harness.js');
      const listed = (await runConformanceHarness(['list'], workDir, 30_000)).output;
      const authScenarios = listed.match(/auth\/[\w-]+/g) ?? [];
      expect([...authScenarios].sort()).toEqual([...baseline.scenarios].sort());
      for (const scenario of baseline.scenarios) {
        const { checks, output } = run(scenario);
        expect(checks.length, `${scenario}:\n${output}`).toBeGreaterThan(0);
        expect(output, scenario).not.toContain('timed out');
      }
    });

    it.each(expectedToPass)('%s: every check passes, and the client ends as it should', (scenario) => {
      const { checks, output, clientStderr } = run(scenario);
      const context = `${output.slice(-2_000)}\nclient stderr:\n${clientStderr.slice(-3_000)}`;
      expect(describeChecks(problems(checks)), context).toBe('');
      const statuses = Object.fromEntries(checks.map((check) => [check.id, check.status]));
      const required = REQUIRED_CHECKS[scenario] ?? [];
      expect(statuses, context).toMatchObject(Object.fromEntries(required.map((id) => [id, 'SUCCESS'])));
      const fails = CLIENT_FAILS[scenario];
      if (fails === undefined) {
        expect(output, context).not.toContain('Client exited with code');
      } else {
        expect(output, context).toContain('Client exited with code 1');
        expect(clientStderr, context).toContain(fails);
      }
    });

    it('asks the person once per scenario, except to step up scope (twice) or until giving up (three times)', () => {
      const authorizations = (scenario: string): number =>
        run(scenario).checks.filter((check) => check.id === 'authorization-request').length;
      expect(authorizations('auth/metadata-default')).toBe(1);
      expect(authorizations('auth/scope-step-up')).toBe(2);
      expect(authorizations('auth/scope-retry-limit')).toBe(3);
      expect(authorizations('auth/resource-mismatch')).toBe(0);
    });

    it('every baseline scenario still fails, for the reason the baseline gives', () => {
      expect(staleExpectedFailures(baseline, run)).toEqual([]);
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
