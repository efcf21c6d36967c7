/**
 * A server's requests to the client, from scripts (`call`, `ask`), against the reference peer
 * (server-everything) over stdio and Streamable HTTP, with the fake Ollama recording what
 * reached the model: sampling runs only under `allow` or `--yes`, a form is declined unless
 * every field has a default under `allow`, and a URL is never opened by a script. Each scenario has
 * a fake Ollama and a config of its own, and most of its time is a process waiting on another: they
 * run at the same time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it, type TestContext } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { EVERYTHING, everythingOverHttp } from '../helpers/everything.js';
import { killAll } from '../helpers/spawn-server.js';
import { ownFakeOllama } from '../helpers/own-fake-ollama.js';

const RUN_MS = 60_000;

let workDir: string;
let httpUrl: string;
/** A `$BROWSER` that records each URL it is given. */
let browser: string;
let opened: string;

beforeAll(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-requests-')));
  opened = path.join(workDir, 'opened.txt');
  browser = path.join(workDir, 'browser.sh');
  fs.writeFileSync(browser, `#!/bin/sh\necho "$1" >> '${opened}'\n`, { mode: 0o755 });
  httpUrl = await everythingOverHttp();
});
afterAll(async () => {
  await killAll();
  fs.rmSync(workDir, { recursive: true, force: true });
});

type Transport = 'stdio' | 'Streamable HTTP';

function entry(transport: Transport, policies: Record<string, string>): Record<string, unknown> {
  const where = transport === 'stdio' ? { command: 'node', args: [EVERYTHING, 'stdio'] } : { url: httpUrl };
  return { ...where, ...policies };
}

/** A scenario's own fake Ollama (closed when it ends), and its runs of the CLI against it, each with a config of its own. */
async function scenario(test: TestContext) {
  const ollama = await ownFakeOllama(test);
  const cli = (args: string[], transport: Transport, policies: Record<string, string> = {}) => {
    const run = randomUUID();
    const config = path.join(workDir, `config-${run}.json`);
    fs.writeFileSync(config, JSON.stringify({ mcpServers: { everything: entry(transport, policies) } }));
    const env = cleanEnv({
      HOME: workDir,
      OLLAMA_HOST: ollama.url,
      MCP_CHAT_LOG_FILE: path.join(workDir, `log-${run}.jsonl`),
      BROWSER: browser,
    });
    return runCli(['--config', config, ...args], { cwd: workDir, env, timeoutMs: RUN_MS });
  };
  return { ollama, cli };
}

const sampling = (prompt: string): string[] => [
  'call',
  'everything',
  'trigger-sampling-request',
  JSON.stringify({ prompt }),
];

describe.concurrent.each<Transport>(['stdio', 'Streamable HTTP'])(
  'server-everything over %s, from a script',
  (transport) => {
    it(
      'tools --json lists the tools it registers only for a client that answers sampling and elicitation',
      async (test) => {
        const { expect } = test;
        const { cli } = await scenario(test);
        const result = await cli(['tools', '--json'], transport);
        expect(result.code).toBe(0);
        const names = (JSON.parse(result.stdout) as { name: string }[]).map((tool) => tool.name);
        expect(names).toEqual(
          expect.arrayContaining([
            'trigger-sampling-request',
            'trigger-elicitation-request',
            'trigger-url-elicitation',
          ]),
        );
      },
      RUN_MS,
    );

    it(
      'sampling: "allow" — one request to the model with the server’s messages and limits; its reply goes back',
      async (test) => {
        const { expect } = test;
        const { ollama, cli } = await scenario(test);
        ollama.script('Zebras are striped.');
        const result = await cli(sampling('zebra'), transport, { sampling: 'allow' });
        expect(result.code).toBe(0);
        expect(result.stdout).toContain('Zebras are striped.');
        expect(result.stdout).toContain('"model": "llama3.2"');
        const sent = ollama.chatRequests.filter((request) => request.messages.length > 0);
        expect(sent).toHaveLength(1);
        expect(sent[0]?.messages).toEqual([
          { role: 'system', content: 'You are a helpful test server.' },
          { role: 'user', content: 'Resource trigger-sampling-request context: zebra' },
        ]);
        expect(sent[0]?.options).toMatchObject({ num_predict: 100, temperature: 0.7 });
      },
      RUN_MS,
    );

    it(
      'a sampling request sent as a task is answered as one: the server polls and gets the completion',
      async (test) => {
        const { expect } = test;
        const { ollama, cli } = await scenario(test);
        ollama.script('Async zebras.');
        const args = ['call', 'everything', 'trigger-sampling-request-async', JSON.stringify({ prompt: 'zebra' })];
        const result = await cli(args, transport, { sampling: 'allow' });
        expect(result.code).toBe(0);
        expect(result.stdout).toContain('Async zebras.');
        expect(result.stdout).not.toContain('[SYNC]');
        expect(ollama.chatRequests.filter((request) => request.messages.length > 0)).toHaveLength(1);
      },
      RUN_MS,
    );

    it(
      'sampling under "ask" without --yes is declined, stderr says why, and nothing reaches the model',
      async (test) => {
        const { expect } = test;
        const { ollama, cli } = await scenario(test);
        const result = await cli(sampling('zebra'), transport);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('everything asked to use the model (sampling); declined');
        expect(result.stderr).toContain('Pass --yes, or set "sampling": "allow"');
        // What the server was told comes back once, with one protocol prefix.
        expect(result.stderr).toContain('error: MCP error -1: sampling needs the user’s approval');
        expect(result.stderr).not.toContain('MCP error -1: MCP error');
        expect(ollama.chatRequests.filter((request) => request.messages.length > 0)).toEqual([]);
        ollama.script('With yes.');
        const yes = await cli([...sampling('zebra'), '--yes'], transport);
        expect(yes.code).toBe(0);
        expect(yes.stdout).toContain('With yes.');
      },
      RUN_MS,
    );

    it(
      'ask --json records each server request of the turn, and what became of it',
      async (test) => {
        const { expect } = test;
        const { ollama, cli } = await scenario(test);
        const call = JSON.stringify({
          action: 'use_tool',
          server: 'everything',
          tool: 'trigger-sampling-request',
          arguments: { prompt: 'zebra' },
        });
        ollama.script(call, 'Striped.', 'It said striped.');
        const result = await cli(['ask', '--json', '--yes', 'sample for me'], transport);
        expect(result.code).toBe(0);
        const record = JSON.parse(result.stdout) as { serverRequests: unknown[]; answer: string };
        expect(record.answer).toBe('It said striped.');
        expect(record.serverRequests).toEqual([
          {
            server: 'everything',
            kind: 'sampling',
            outcome: 'accepted',
            model: 'llama3.2',
            durationMs: expect.any(Number),
          },
        ]);
      },
      RUN_MS,
    );

    it(
      'sampling: "deny" is declined even with --yes; the server is told so',
      async (test) => {
        const { expect } = test;
        const { ollama, cli } = await scenario(test);
        const result = await cli([...sampling('zebra'), '--yes'], transport, { sampling: 'deny' });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('sampling is denied for everything in the config');
        expect(ollama.chatRequests.filter((request) => request.messages.length > 0)).toEqual([]);
      },
      RUN_MS,
    );

    it(
      'a form is declined in a script, even under "allow" when a field has no default; stderr says so',
      async (test) => {
        const { expect } = test;
        const { cli } = await scenario(test);
        const asked = await cli(['call', 'everything', 'trigger-elicitation-request'], transport);
        expect(asked.stderr).toContain('everything asked for information (a form); declined');
        expect(asked.stdout + asked.stderr).toMatch(/decline/i);
        const allowed = await cli(['call', 'everything', 'trigger-elicitation-request'], transport, {
          elicitation: 'allow',
        });
        expect(allowed.stderr).toContain('fields that have no default; declined');
      },
      RUN_MS,
    );

    it(
      'a URL is never opened by a script, whatever the policy',
      async (test) => {
        const { expect } = test;
        const { cli } = await scenario(test);
        const args = [
          'call',
          'everything',
          'trigger-url-elicitation',
          JSON.stringify({ url: 'https://example.com/x' }),
        ];
        const result = await cli(args, transport, { elicitation: 'allow' });
        expect(result.stderr).toContain('asked you to open https://example.com/x; declined');
        expect(fs.existsSync(opened)).toBe(false);
      },
      RUN_MS,
    );
  },
);
