/**
 * Signals: `mcp-chat` interrupted mid-turn (SIGINT, SIGTERM) stops every server it
 * started before it exits, with the conventional 128+signal exit status.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { CLI, cleanEnv } from '../helpers/run-cli.js';
import { descendants, isProcessAlive } from '../helpers/server-configs.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

let workDir: string;
let ollama: FakeOllama;

beforeAll(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-signal-')));
  ollama = await startFakeOllama();
});
afterAll(async () => {
  await ollama.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe.each([
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)('%s during a turn', (signal, status) => {
  it(`stops every server and exits ${status}`, async () => {
    ollama.script({ text: 'thinking…', hang: true });
    const env = cleanEnv({
      HOME: workDir,
      OLLAMA_HOST: ollama.url,
      MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl'),
    });
    const child = spawn(process.execPath, [CLI, 'ask', 'a question that never gets its answer'], {
      cwd: workDir,
      env,
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const chatsBefore = ollama.chatRequests.length;
    // The turn has started once the model was asked; the servers were started before that.
    await vi.waitFor(() => expect(ollama.chatRequests.length).toBe(chatsBefore + 1), CONDITION_WAIT);
    const servers = descendants(child.pid as number);
    expect(servers.length).toBeGreaterThanOrEqual(3);
    child.kill(signal);
    expect(await exited).toBe(status);
    await vi.waitFor(() => expect(servers.filter(isProcessAlive)).toEqual([]), CONDITION_WAIT);
  });
});
