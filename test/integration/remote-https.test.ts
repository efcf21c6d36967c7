/**
 * McpHost against real remote servers on 127.0.0.1: our GitHub server's HTTP entry
 * from the build over HTTPS (a certificate made for the test, backed by the fake
 * GitHub API), and server-everything over Streamable HTTP and SSE.
 */
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteServerConfig } from '../../src/config/types.js';
import { createLogger, silentLogger, type Logger } from '../../src/shared/log.js';
import { McpHost, type ServerStatus } from '../../src/mcp/host.js';
import { FakeGitHub, fixture } from '../fakes/fake-github.js';
import { REPO_ROOT, remoteServer } from '../helpers/server-configs.js';
import {
  closePlainServers,
  freePort,
  killAll,
  killAndWait,
  plainServer,
  selfSignedCertificate,
  spawnNodeServer,
  type Certificate,
  type SpawnedServer,
} from '../helpers/spawn-server.js';

const GITHUB_MAIN = path.join(REPO_ROOT, 'dist/servers/github/main.js');
const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FILE_PATH = '/repos/tmax-cloud/cd-example-apps/contents/deployment.yaml';
const READ_FILE = {
  server: 'github',
  tool: 'get_file_content',
  arguments: { owner: 'tmax-cloud', repo: 'cd-example-apps', path: 'deployment.yaml' },
};
const TOKEN = 'ghp_SecretValueThatMustNeverBeLogged0123';

let dir: string;
let trusted: Certificate;
let stranger: Certificate;
let github: SpawnedServer;
const fake = new FakeGitHub();
const hosts: McpHost[] = [];

function remote(name: string, url: string, overrides: Partial<RemoteServerConfig> = {}): RemoteServerConfig {
  return remoteServer(name, url, { transport: 'auto', ...overrides });
}

async function startHost(configs: RemoteServerConfig[], log: Logger = silentLogger): Promise<McpHost> {
  const host = new McpHost(configs, { log });
  hosts.push(host);
  await host.start();
  return host;
}

function startGitHub(port = 0): Promise<SpawnedServer> {
  return spawnNodeServer(
    [GITHUB_MAIN, '--port', String(port), '--cert', trusted.cert, '--key', trusted.key],
    { GITHUB_API_URL: fake.url },
    /listening on (https:\/\/\S+)/,
  );
}

/** A plain HTTP server on 127.0.0.1 with a fixed behaviour, for failure cases. */
function statusOf(host: McpHost, name: string): ServerStatus {
  const status = host.statuses().find((s) => s.name === name);
  if (!status) throw new Error(`no status for ${name}`);
  return status;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'remote-https-'));
  trusted = selfSignedCertificate(dir, 'trusted');
  stranger = selfSignedCertificate(dir, 'stranger');
  await fake.start();
  fake.on(FILE_PATH, { body: fixture('contents-file-deployment.json') });
  github = await startGitHub();
});

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

afterAll(async () => {
  await killAll();
  await closePlainServers();
  await fake.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('remote servers over HTTPS, Streamable HTTP and SSE', () => {
  it('lists the GitHub tools and reads a decoded file over HTTPS, trusted through `ca`, forwarding Authorization', async () => {
    const host = await startHost([
      remote('github', github.ready, { ca: trusted.cert, headers: { Authorization: `Bearer ${TOKEN}` } }),
    ]);
    expect(statusOf(host, 'github').state).toBe('ready');
    expect(
      host
        .listTools()
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(['get_file_content', 'get_repository', 'list_files', 'search_repositories']);
    const result = await host.callTool(READ_FILE);
    expect(result.isError).toBe(false);
    expect(result.forModel).toContain('name: test-deploy-from-git');
    const toGitHub = fake.requests.filter((request) => request.url === FILE_PATH);
    expect(toGitHub.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('talks to server-everything over Streamable HTTP', async () => {
    const port = await freePort();
    await spawnNodeServer([EVERYTHING, 'streamableHttp'], { PORT: String(port) }, /listening on port (\d+)/);
    const host = await startHost([remote('everything', `http://127.0.0.1:${port}/mcp`, { transport: 'http' })]);
    expect(statusOf(host, 'everything').state).toBe('ready');
    const echo = await host.callTool({
      server: 'everything',
      tool: 'echo',
      arguments: { message: 'over streamable http' },
    });
    expect(echo).toMatchObject({ isError: false, forModel: 'Echo: over streamable http' });
  });

  it('falls back to SSE with transport "auto" against an SSE-only server', async () => {
    const port = await freePort();
    await spawnNodeServer([EVERYTHING, 'sse'], { PORT: String(port) }, /running on port (\d+)/);
    const logFile = path.join(dir, 'fallback.log');
    const host = await startHost(
      [remote('everything', `http://127.0.0.1:${port}/sse`)],
      createLogger({ level: 'info', file: logFile }),
    );
    expect(statusOf(host, 'everything').state).toBe('ready');
    const echo = await host.callTool({ server: 'everything', tool: 'echo', arguments: { message: 'over sse' } });
    expect(echo).toMatchObject({ isError: false, forModel: 'Echo: over sse' });
    expect(fs.readFileSync(logFile, 'utf8')).toContain('falling back to SSE');
  });

  it('gets a fresh session when the server restarts on the same port mid-session', async () => {
    const first = await startGitHub();
    const url = new URL(first.ready);
    const logFile = path.join(dir, 'restart.log');
    const host = await startHost(
      [remote('github', first.ready, { ca: trusted.cert })],
      createLogger({ level: 'info', file: logFile }),
    );
    expect((await host.callTool(READ_FILE)).isError).toBe(false);
    await killAndWait(first.child);
    const second = await startGitHub(Number(url.port));
    const result = await host.callTool(READ_FILE);
    expect(result.isError).toBe(false);
    expect(result.forModel).toContain('name: test-deploy-from-git');
    expect(second.lines.some((line) => line.includes('session'))).toBe(true);
    expect(statusOf(host, 'github').state).toBe('ready');
    const log = fs.readFileSync(logFile, 'utf8');
    expect(log).toContain('session no longer known to the server');
    expect(log).toContain('new session established');
  });

  it('refuses a certificate it cannot verify: without `ca`, and with a different CA', async () => {
    const host = await startHost([
      remote('no-ca', github.ready),
      remote('other-ca', github.ready, { ca: stranger.cert }),
    ]);
    for (const name of ['no-ca', 'other-ca']) {
      const status = statusOf(host, name);
      expect(status.state).toBe('failed');
      expect(status.lastError).toMatch(/TLS certificate of https:\/\/127\.0\.0\.1:\d+ is not trusted/);
      expect(status.lastError).toContain(`set "ca" in the "${name}" entry`);
    }
  });

  it('the GitHub HTTP entry refuses a foreign Host or Origin (DNS rebinding) and unknown sessions', async () => {
    const post = (headers: Record<string, string>): Promise<number> =>
      new Promise((resolve, reject) => {
        const url = new URL(github.ready);
        const options: https.RequestOptions = {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          ca: fs.readFileSync(trusted.cert),
          // The Host header is forged on purpose; certificate identity is not what this test is about.
          checkServerIdentity: () => undefined,
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        };
        const request = https.request(options, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on('error', reject);
        request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
      });
    const port = new URL(github.ready).port;
    expect(await post({ host: `rebound.example:${port}` })).toBe(403);
    expect(await post({ host: `127.0.0.1:${port}`, origin: 'https://rebound.example' })).toBe(403);
    expect(await post({ host: `127.0.0.1:${port}`, 'mcp-session-id': 'no-such-session' })).toBe(404);
    expect(await post({ host: `localhost:${port}`, origin: `https://localhost:${port}` })).toBe(400);
  });

  it('reports 401 at connect as an authentication problem naming the header', async () => {
    const url = await plainServer((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      res.end(JSON.stringify({ error: 'invalid_token', received: req.headers.authorization }));
    });
    const host = await startHost([remote('guarded', url, { headers: { Authorization: `Bearer ${TOKEN}` } })]);
    const status = statusOf(host, 'guarded');
    expect(status.state).toBe('failed');
    expect(status.lastError).toContain('authentication problem');
    expect(status.lastError).toContain('401 Unauthorized');
    expect(status.lastError).toContain('"Authorization" header');
    expect(status.lastError).not.toContain(TOKEN);
  });

  it('bounds the connect by the server timeout', async () => {
    const url = await plainServer(() => undefined);
    const host = await startHost([remote('silent', url, { timeoutMs: 500 })]);
    expect(statusOf(host, 'silent').lastError).toMatch(
      /no answer from http:\/\/127\.0\.0\.1:\d+\/mcp within 0\.5 s|timed out/i,
    );
  });

  it('never writes the token to the log file, even when a server echoes it back', async () => {
    const echoing = await plainServer((req, res) => {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`bad request; you sent Authorization: ${req.headers.authorization ?? ''}`);
    });
    const logFile = path.join(dir, 'secrets.log');
    const headers = { Authorization: `Bearer ${TOKEN}` };
    const host = await startHost(
      [
        remote('github', github.ready, { ca: trusted.cert, headers }),
        remote('echoing', echoing, { headers, transport: 'http' }),
      ],
      createLogger({ level: 'debug', file: logFile }),
    );
    expect((await host.callTool(READ_FILE)).isError).toBe(false);
    expect(statusOf(host, 'echoing').state).toBe('failed');
    expect(statusOf(host, 'echoing').lastError).not.toContain(TOKEN);
    await host.close();
    const log = fs.readFileSync(logFile, 'utf8');
    expect(log).toContain('server ready');
    expect(log).toContain('server failed to start');
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain('SecretValueThatMustNeverBeLogged');
  });
});
