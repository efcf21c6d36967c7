/**
 * MCP conformance of `mcp-chat mcp-server --http`: the server scenarios of
 * @modelcontextprotocol/conformance that apply to a server offering one tool of its own (the
 * protocol, the transport, DNS rebinding), run one by one. Those that need the harness's own tools,
 * resources, prompts, logging or completion do not apply (docs/mcp-server.md says which and why).
 * The harness sends no credentials, so it comes through a proxy that adds the bearer token.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOllama, TEXT_MODEL, type FakeOllama } from '../fakes/fake-ollama.js';
import { startBearerProxy, type BearerProxy } from '../helpers/bearer-proxy.js';
import { harnessUnavailable, runConformanceHarness } from '../helpers/conformance-harness.js';
import { startHttpMcpServer, type HttpMcpServer } from '../helpers/mcp-server-client.js';

const unavailable = harnessUnavailable();
const TOKEN = 'conformance-bearer-token-0123456789';
/** A scenario takes about a second; this only turns a hang into a failure. */
const SCENARIO_TIMEOUT_MS = 60_000;
const APPLICABLE = [
  'server-initialize',
  'ping',
  'tools-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

let workDir: string;
let ollama: FakeOllama;
let server: HttpMcpServer;
let proxy: BearerProxy;

beforeAll(async () => {
  if (unavailable) return;
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-server-conformance-')));
  ollama = await startFakeOllama({ models: TEXT_MODEL });
  server = await startHttpMcpServer(ollama.url, workDir, ['--token', TOKEN]);
  proxy = await startBearerProxy(server.url, TOKEN);
});

afterAll(async () => {
  if (unavailable) return;
  await proxy.close();
  await server.stop();
  await ollama.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe.skipIf(unavailable !== undefined)(
  `MCP conformance of mcp-chat mcp-server over HTTP${unavailable ? `, ${unavailable}` : ''}`,
  () => {
    it.each(APPLICABLE)(
      'passes %s',
      async (scenario) => {
        const run = await runConformanceHarness(
          ['server', '--url', proxy.url, '--scenario', scenario],
          workDir,
          SCENARIO_TIMEOUT_MS,
        );
        expect(run.output).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
        expect(run.code, run.output.slice(-2_000)).toBe(0);
      },
      SCENARIO_TIMEOUT_MS + 5_000,
    );
  },
);
