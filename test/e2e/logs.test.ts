/**
 * Where the built CLI logs, run as a user runs it: under the state directory and never in the
 * working directory, rotated by size in the bundled program (on pino's own file stream, in-process, no worker),
 * and readable by its user alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

let root: string;
let workDir: string;
let stateHome: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-logs-')));
  workDir = path.join(root, 'work');
  stateHome = path.join(root, 'state');
  fs.mkdirSync(workDir);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the log of the built CLI', () => {
  it('a chat run in any directory leaves no logs/ folder there: the log is under $XDG_STATE_HOME', async () => {
    const env = cleanEnv({ HOME: root, XDG_STATE_HOME: stateHome });
    const result = await runCli(['tools'], { cwd: workDir, env });
    expect(result.code).toBe(0);
    expect(fs.readdirSync(workDir)).toEqual([]);
    const log = fs.readFileSync(path.join(stateHome, 'mcp-chat/logs/mcp-chat.log'), 'utf8');
    expect(log).toContain('"msg":"mcp-chat starting"');
  });

  it('a log past logging.max_size goes on in a new file, at most logging.files kept, read at MCP_CHAT_LOG_FILE', async () => {
    const config = path.join(root, 'mcp_config.json');
    const server = path.join(REPO_ROOT, 'test/fixtures/servers/scripted-server.mjs');
    fs.writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { scripted: { command: process.execPath, args: [server] } },
        logging: { max_size: '1k', files: 2 },
      }),
    );
    const logFile = path.join(root, 'logs', 'chat.log');
    const env = cleanEnv({ HOME: root, XDG_STATE_HOME: stateHome, MCP_CHAT_LOG_FILE: logFile });
    const numbered = (): string[] =>
      fs.readdirSync(path.dirname(logFile)).filter((name) => /^chat\.\d+\.log$/.test(name));
    const created = new Set<string>();
    // Each call floods the log with the server's stderr (about 6 kB), well past 1 kB.
    for (let run = 0; run < 3; run++) {
      const result = await runCli(
        ['--config', config, 'call', 'scripted', 'flood_stderr', '{"lines":30,"width":100}'],
        { cwd: workDir, env },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(numbered().length).toBeLessThanOrEqual(2);
      for (const name of numbered()) created.add(name);
    }
    expect(created.size).toBeGreaterThan(2);
    expect(fs.readdirSync(workDir)).toEqual([]);
    // The configured path is the live log: a link to the newest file; the server's stderr is logged.
    expect(numbered()).toContain(fs.readlinkSync(logFile));
    const kept = numbered().map((name) => fs.readFileSync(path.join(path.dirname(logFile), name), 'utf8'));
    expect(kept.join('')).toContain('"server":"scripted","stream":"stderr"');
  });

  it('log readable by others: a fresh log is 0600 in a 0700 folder, and logs an older run left 0644 are tightened', async () => {
    const mode = (file: string): string => (fs.statSync(file).mode & 0o777).toString(8);
    const logs = path.join(stateHome, 'mcp-chat/logs');
    const fresh = await runCli(['tools'], { cwd: workDir, env: cleanEnv({ HOME: root, XDG_STATE_HOME: stateHome }) });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(mode(path.join(logs, 'mcp-chat.log'))).toBe('600');
    expect(mode(logs)).toBe('700');
    expect(mode(path.join(stateHome, 'mcp-chat'))).toBe('700');

    // What an older mcp-chat left: a numbered file and a log at the configured path itself, both 0644.
    const logFile = path.join(root, 'older', 'chat.log');
    fs.mkdirSync(path.dirname(logFile));
    fs.writeFileSync(path.join(root, 'older', 'chat.1.log'), '{"msg":"an older run"}\n', { mode: 0o644 });
    fs.writeFileSync(logFile, '{"msg":"before rotation"}\n', { mode: 0o644 });
    const env = cleanEnv({ HOME: root, XDG_STATE_HOME: stateHome, MCP_CHAT_LOG_FILE: logFile });
    const older = await runCli(['tools'], { cwd: workDir, env });
    expect(older.code, older.stderr).toBe(0);
    expect(fs.readFileSync(logFile, 'utf8')).toContain('"msg":"an older run"');
    expect(mode(logFile)).toBe('600');
    expect(mode(`${logFile}.old`)).toBe('600');
  });
});
