/**
 * The GitHub story end to end: the built `mcp-chat` binary against our GitHub server's
 * HTTPS entry (a child process with a certificate made for the test, backed by the fake
 * GitHub API), through a config that trusts that certificate with `ca`. Listing, a direct
 * call, the three failures users meet (untrusted certificate, missing token, 401), and `ask`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeGitHub, fixture } from '../fakes/fake-github.js';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';
import {
  closePlainServers,
  killAll,
  plainServer,
  selfSignedCertificate,
  spawnNodeServer,
} from '../helpers/spawn-server.js';

const GITHUB_MAIN = path.join(REPO_ROOT, 'dist/servers/github/main.js');
const README_PATH = '/repos/o/r/contents/README.md';
const README_TEXT = '# r\n\nHello from the fake GitHub API. Ünïcode survives base64.\n';
const READ_ARGS = { owner: 'o', repo: 'r', path: 'README.md' };
const TOKEN = 'ghp_EndToEndTokenForTheFakeApi0123456789';
const REVOKED_TOKEN = 'ghp_RevokedTokenThatGitHubRefuses000000';
const TOKEN_MISSING = 'missing environment variable GITHUB_TOKEN (used in headers.Authorization)';

let workDir: string;
let githubUrl: string;
let trustedConfig: string;
let untrustedConfig: string;
let ollama: FakeOllama | undefined;
const fake = new FakeGitHub();

/** The recorded contents-API file response with README.md's path and bytes. */
function readmeResponse(): Record<string, unknown> {
  const recorded = JSON.parse(fixture('contents-file-deployment.json')) as Record<string, unknown>;
  const bytes = Buffer.from(README_TEXT, 'utf8');
  // GitHub wraps base64 at 60 characters; the decoder must cope with the newlines.
  const content = bytes.toString('base64').replace(/.{60}/g, '$&\n');
  return { ...recorded, name: 'README.md', path: 'README.md', size: bytes.length, content };
}

/** A config in the work dir with one `github` entry using `${GITHUB_TOKEN}`; `ca` is relative to the file. */
function writeConfig(name: string, url: string, extra: Record<string, unknown> = {}): string {
  const file = path.join(workDir, name);
  // Trusted: it is our own GitHub server, whose read-only tools run without asking.
  const github = { type: 'http', url, headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' }, trust: true, ...extra };
  fs.writeFileSync(file, JSON.stringify({ mcpServers: { github } }, null, 2));
  return file;
}

/** `token: null` runs with GITHUB_TOKEN unset. */
function cli(args: string[], token: string | null = TOKEN): Promise<CliResult> {
  const env = cleanEnv({
    HOME: workDir,
    MCP_CHAT_LOG_FILE: path.join(workDir, 'mcp-chat.log'),
    ...(token === null ? {} : { GITHUB_TOKEN: token }),
    ...(ollama === undefined ? {} : { OLLAMA_HOST: ollama.url }),
  });
  return runCli(args, { cwd: workDir, env });
}

const readCall = (config: string, token: string | null = TOKEN): Promise<CliResult> =>
  cli(['call', 'github', 'get_file_content', JSON.stringify(READ_ARGS), '--config', config], token);

beforeAll(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-github-e2e-')));
  const certificate = selfSignedCertificate(workDir, 'github');
  await fake.start();
  // GitHub answers a token it does not accept with 401 "Bad credentials", whatever the path.
  fake.on(README_PATH, (request) =>
    request.headers.authorization === `Bearer ${TOKEN}`
      ? { body: readmeResponse() }
      : { status: 401, body: fixture('error-401-bad-credentials.json') },
  );
  const github = await spawnNodeServer(
    [GITHUB_MAIN, '--port', '0', '--cert', certificate.cert, '--key', certificate.key],
    { GITHUB_API_URL: fake.url },
    /listening on (https:\/\/\S+)/,
  );
  githubUrl = github.ready;
  trustedConfig = writeConfig('trusted.json', githubUrl, { ca: path.basename(certificate.cert) });
  untrustedConfig = writeConfig('untrusted.json', githubUrl);
});

afterEach(async () => {
  await ollama?.close();
  ollama = undefined;
});

afterAll(async () => {
  await killAll();
  await closePlainServers();
  await fake.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe('mcp-chat with our GitHub server over HTTPS', () => {
  it('tools --json lists the GitHub tools, the certificate trusted through `ca`', async () => {
    const result = await cli(['tools', '--json', '--config', trustedConfig]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const tools = JSON.parse(result.stdout) as { server: string; name: string }[];
    expect(tools.map((tool) => `${tool.server}.${tool.name}`).sort()).toEqual([
      'github.get_file_content',
      'github.get_repository',
      'github.list_files',
      'github.search_repositories',
    ]);
  });

  it('call github get_file_content prints the decoded file, the token forwarded to the GitHub API', async () => {
    const result = await readCall(trustedConfig);
    expect(result).toEqual({ code: 0, stdout: README_TEXT, stderr: '' });
    const toGitHub = fake.requests.filter((request) => request.url.startsWith(README_PATH));
    expect(toGitHub.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});

describe('the failures users meet, one clear line each', () => {
  const untrusted = (url: string): RegExp =>
    new RegExp(
      `failed to start \\(${url.replaceAll('.', '\\.')}\\): TLS certificate of https://127\\.0\\.0\\.1:\\d+ is not trusted by the system CAs ` +
        '\\([A-Z_]+\\); set "ca" in the "github" entry to the PEM file of the CA that issued it$',
    );

  it('an untrusted certificate (no `ca`): tools warns in one line and exits 0; call exits 1', async () => {
    const tools = await cli(['tools', '--json', '--config', untrustedConfig]);
    expect(tools.code).toBe(0);
    expect(JSON.parse(tools.stdout)).toEqual([]);
    const lines = tools.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warning: github: /);
    expect(lines[0]).toMatch(untrusted(githubUrl));
    const call = await readCall(untrustedConfig);
    expect(call.code).toBe(1);
    expect(call.stdout).toBe('');
    expect(call.stderr.trimEnd().split('\n').at(-1)).toMatch(/^error: server "github" is not available: /);
    expect(call.stderr.trimEnd().split('\n').at(-1)).toMatch(untrusted(githubUrl));
  });

  it('GITHUB_TOKEN unset: the server is disabled with one line naming the variable, and nothing is sent', async () => {
    const before = fake.requests.length;
    const call = await readCall(trustedConfig, null);
    expect(call).toEqual({ code: 1, stdout: '', stderr: `error: server "github" is disabled: ${TOKEN_MISSING}\n` });
    const tools = await cli(['tools', '--json', '--config', trustedConfig], null);
    expect(tools).toEqual({ code: 0, stdout: '[]\n', stderr: `warning: github: disabled (${TOKEN_MISSING})\n` });
    expect(fake.requests.length).toBe(before);
  });

  it('401 from the GitHub API (a revoked token): one line, exit 1, the token not shown', async () => {
    const call = await readCall(trustedConfig, REVOKED_TOKEN);
    expect(call).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: GitHub rejected the token (401): check GITHUB_TOKEN\n',
    });
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${REVOKED_TOKEN}`);
  });

  it('401 from the MCP endpoint itself: one line naming the header and the variable, the token not shown', async () => {
    const url = await plainServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      res.end(JSON.stringify({ error: 'invalid_token' }));
    });
    const tools = await cli(['tools', '--json', '--config', writeConfig('guarded.json', url)], REVOKED_TOKEN);
    expect(tools.code).toBe(0);
    const lines = tools.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warning: github: .*authentication problem/);
    expect(lines[0]).toContain('401 Unauthorized');
    expect(lines[0]).toContain('"Authorization" header');
    expect(lines[0]).toContain('GITHUB_TOKEN');
    expect(tools.stderr).not.toContain(REVOKED_TOKEN);
  });
});

describe('mcp-chat ask with the GitHub server', () => {
  it('the model asks for github/get_file_content in text JSON and gets the decoded file back', async () => {
    ollama = await startFakeOllama({ models: [{ name: 'llama3.2', capabilities: ['completion'] }] });
    const request = JSON.stringify({
      action: 'use_tool',
      server: 'github',
      tool: 'get_file_content',
      arguments: READ_ARGS,
    });
    ollama.script(request, 'The README of o/r says: "Hello from the fake GitHub API."');
    const result = await cli(['ask', '--json', '--config', trustedConfig, 'What does the README of o/r say?']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as { answer: string; steps: number; toolCalls: Record<string, unknown>[] };
    expect(output.answer).toContain('Hello from the fake GitHub API.');
    expect(output.steps).toBe(2);
    expect(output.toolCalls).toEqual([
      {
        id: 'call_1',
        server: 'github',
        tool: 'get_file_content',
        arguments: READ_ARGS,
        isError: false,
        result: expect.stringContaining(README_TEXT.trimEnd()),
        durationMs: expect.any(Number),
      },
    ]);
    const second = ollama.chatRequests[1];
    expect(second?.messages.at(-1)?.content).toContain('Ünïcode survives base64.');
    expect(ollama.chatRequests[0]?.messages[0]?.content).toContain('get_file_content');
  });
});
