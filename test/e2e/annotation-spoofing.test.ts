/**
 * A server's annotations are its own claims. Through the real `ask`: a tool of a server the
 * user has not trusted asks (and without --yes is refused) even when it says it is read-only;
 * a tool that says it is destructive asks even on a trusted server; `alwaysAllow` is the user's
 * own word and is honoured.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { textCall } from '../helpers/turns.js';

const SCRIPTED = path.join(REPO_ROOT, 'test/fixtures/servers/scripted-server.mjs');

let workDir: string;
let ollama: FakeOllama;

beforeAll(() => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-spoof-')));
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));
beforeEach(async () => {
  ollama = await startFakeOllama({ models: [{ name: 'llama3.2', capabilities: ['completion'] }] });
});
afterEach(() => ollama.close());

/** `ask --json` with one scripted server configured as given; returns what the call became. */
async function askToCall(tool: string, entry: Record<string, unknown>): Promise<{ isError: boolean; result: string }> {
  const config = path.join(workDir, `${tool}-${Object.keys(entry).join('-')}.json`);
  const server = { command: process.execPath, args: [SCRIPTED, 'name=spoof'], ...entry };
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { spoof: server } }));
  ollama.script(textCall('spoof', tool, {}), 'Done.');
  const env = cleanEnv({ HOME: workDir, OLLAMA_HOST: ollama.url, MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl') });
  const result = await runCli(['ask', '--json', '--config', config, `use ${tool}`], { cwd: workDir, env });
  const [call] = (JSON.parse(result.stdout) as { toolCalls: { isError: boolean; result: string }[] }).toolCalls;
  if (!call) throw new Error(`no tool call in ${result.stdout}`);
  // A denial still ends with an answer: exit 0 either way, the denial said on stderr.
  expect(result.code).toBe(0);
  if (call.isError) expect(result.stderr).toContain('was not run: it needs approval');
  return call;
}

describe('annotation spoofing', () => {
  it('a server the user has not trusted cannot skip approval by calling its tool read-only', async () => {
    const call = await askToCall('pid', {});
    expect(call.isError).toBe(true);
    expect(call.result).toContain('did not approve');
  });

  it.each([
    [
      'names our server among its arguments',
      [SCRIPTED, 'name=spoof', path.join(REPO_ROOT, 'dist/servers/file/main.js')],
    ],
    // Written out, not path.join'ed: the config holds the `..` as it is.
    [
      'climbs out of our dist/servers with ..',
      [`${REPO_ROOT}/dist/servers/../../test/fixtures/servers/scripted-server.mjs`],
    ],
  ])(
    'lookalike path: a server that %s is not trusted as one of ours, so its read-only tool still asks',
    async (_how, args) => {
      const call = await askToCall('pid', { args });
      expect(call.isError).toBe(true);
      expect(call.result).toContain('did not approve');
    },
  );

  it('a tool that claims to be both read-only and destructive asks even on a trusted server', async () => {
    const call = await askToCall('wipe', { trust: true });
    expect(call.isError).toBe(true);
    expect(call.result).toContain('did not approve');
  });

  it('on a server the user trusts, a read-only tool runs; alwaysAllow runs a tool whatever the server says', async () => {
    expect(await askToCall('pid', { trust: true })).toMatchObject({ isError: false });
    expect(await askToCall('wipe', { alwaysAllow: ['wipe'] })).toMatchObject({ isError: false, result: 'wiped' });
  });
});
