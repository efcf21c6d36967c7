/**
 * Secrets a stdio server echoes, through the real host and real children: the value of its
 * env key and the secret words of its command line, printed on stderr at start, in a crash,
 * in a tool result, or in a log message (`notifications/message`). What the REPL's `servers` command and `doctor` show (a status's
 * lastError), what a call returns, and what the log holds never contain them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpHost, type ServerStatus } from '../../src/mcp/host.js';
import { createLogger, silentLogger, type Logger } from '../../src/shared/log.js';
import { scriptedServer } from '../helpers/server-configs.js';

/** Deliberately unlike any token shape: only knowing the value can hide it. */
const ENV_SECRET = 'live-env-secret-4f9a2c7e1b3d';
const FLAG_SECRET = 'flag-value-5c1e9b7d3a';
const SPACED_FLAG_SECRET = 'spaced-value-8d2f6a4c';
/** Token-shaped, after no flag at all. */
const SHAPED_SECRET = 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const SECRETS = [ENV_SECRET, FLAG_SECRET, SPACED_FLAG_SECRET, SHAPED_SECRET];

/** The flags that carry the secrets, with a harmless one between them. */
const SECRET_ARGS = ['--token=' + FLAG_SECRET, '--verbose', '--api-key', SPACED_FLAG_SECRET, SHAPED_SECRET];

const hosts: McpHost[] = [];
let workDir: string;

beforeEach(() => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-echoed-')));
});
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  fs.rmSync(workDir, { recursive: true, force: true });
});

function leakyHost(mode: string[], log: Logger = silentLogger, env: Record<string, string> = {}): McpHost {
  const config = scriptedServer('leaky', [...mode, ...SECRET_ARGS], { env: { SECRET_KEY: ENV_SECRET, ...env } });
  const host = new McpHost([config], { log });
  hosts.push(host);
  return host;
}

function expectNoSecret(label: string, text: string | undefined): void {
  for (const secret of SECRETS) expect(text?.includes(secret), `${label} contains ${secret}`).toBe(false);
}

function statusOf(host: McpHost): ServerStatus {
  return host.statuses()[0] as ServerStatus;
}

describe('secrets a stdio server echoes', () => {
  it('echoed secret: a server that prints its env key and argv on stderr and exits: lastError (`servers`, `doctor`) hides them', async () => {
    const host = leakyHost(['echo-secret-and-fail']);
    await host.start();
    const { state, lastError } = statusOf(host);
    expect(state).toBe('failed');
    expectNoSecret('lastError', lastError);
    // Still says what happened: the command line, and the server's own words.
    expect(lastError).toContain('--token=[REDACTED] --verbose --api-key [REDACTED] [REDACTED]');
    expect(lastError).toContain('leaky: auth failed for key [REDACTED]');
    const call = await host.callTool({ server: 'leaky', tool: 'echo', arguments: { text: 'hi' } });
    expect(call.isError).toBe(true);
    expectNoSecret('the refused call', call.forModel);
  });

  it('echoed secret: the stderr lines and the start failure written to the log hide them', async () => {
    const logFile = path.join(workDir, 'debug.log');
    const host = leakyHost(['echo-secret-and-fail'], createLogger({ level: 'debug', file: logFile }));
    await host.start();
    const log = fs.readFileSync(logFile, 'utf8');
    expectNoSecret('the log', log);
    expect(log).toContain('leaky: auth failed for key [REDACTED]');
    expect(log).toContain('server failed to start');
  });

  it('echoed secret: a server that crashes after echoing them: the crash in lastError and in the call failure hides them', async () => {
    const host = leakyHost(['echo-secret']);
    await host.start();
    expect(statusOf(host).state).toBe('ready');
    const crash = await host.callTool({ server: 'leaky', tool: 'crash', arguments: {} });
    expect(crash.isError).toBe(true);
    expect(crash.forModel).toContain('stopped during the call');
    expect(crash.forModel).toContain('auth failed for key [REDACTED]');
    expectNoSecret('the call failure', crash.forModel);
    expectNoSecret('lastError', statusOf(host).lastError);
  });

  it('echoed secret: a tool result that echoes the env key or a secret argument shows it redacted', async () => {
    const papersDir = path.join(workDir, 'papers');
    const host = leakyHost([], silentLogger, { PAPERS_DIR: papersDir, MODE: 'verbose-mode' });
    await host.start();
    const env = await host.callTool({ server: 'leaky', tool: 'env', arguments: {} });
    expect(env.isError).toBe(false);
    const childEnv = JSON.parse(env.forModel) as Record<string, string>;
    expect(childEnv.SECRET_KEY).toBe('[REDACTED]');
    expect(childEnv.MODE).toBe('[REDACTED]');
    // A directory the server is told to use is where it says it saved things: it stays visible.
    expect(childEnv.PAPERS_DIR).toBe(papersDir);
    const echo = await host.callTool({ server: 'leaky', tool: 'echo', arguments: { text: `got ${FLAG_SECRET}` } });
    expect(echo.forModel).toBe('echo: got [REDACTED]');
    expectNoSecret('the results', env.forModel + echo.forModel);
  });

  it('echoed secret: a key printed just before a long stderr line is cut is hidden whole, not half-shown', async () => {
    const host = leakyHost(['echo-secret-at=1995', 'echo-secret-and-fail']);
    await host.start();
    const lastError = statusOf(host).lastError ?? '';
    expect(lastError).toContain(`${'.'.repeat(1995)}[REDA…`);
    expect(lastError).not.toContain(ENV_SECRET.slice(0, 5));
  });

  it('echoed secret: log messages (notifications/message) quoting the env key, the argv and a bearer token are logged with them hidden', async () => {
    const logFile = path.join(workDir, 'server-log.log');
    const host = leakyHost([], createLogger({ level: 'debug', file: logFile }));
    await host.start();
    // A token no config gave: only its shape can hide it.
    const bearer = 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5';
    const call = await host.callTool({ server: 'leaky', tool: 'log_secret', arguments: { token: bearer } });
    expect(call.forModel).toBe('logged');
    const entries = fs
      .readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"server log message"'));
    expect(entries).toHaveLength(2);
    const log = entries.join('\n');
    expectNoSecret('the logged messages', log);
    expect(log).not.toContain(bearer);
    // Still says what the server said, and which server.
    expect(log).toContain('auth failed for key [REDACTED]');
    expect(log).toContain('--token=[REDACTED]');
    expect(log).toContain('Bearer [REDACTED]');
    expect(log).toContain('retrying with key [REDACTED]');
    expect(log).toContain('"server":"leaky"');
  });
});
