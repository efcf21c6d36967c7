/**
 * Nothing is lost when processes die or race: a file-server write killed with SIGKILL,
 * concurrent `mcp-chat` processes saving to the same research topic, and `mcp-chat ask`
 * killed mid-turn while it writes its log. All real processes; no timing guesses.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseAtomFeed } from '../../servers/research/atom.js';
import { FakeArxiv, feedResponse, fixture } from '../fakes/fake-arxiv.js';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { CLI, cleanEnv, runCli } from '../helpers/run-cli.js';
import { descendants, isProcessAlive, REPO_ROOT } from '../helpers/server-configs.js';
import { textCall } from '../helpers/turns.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

let workDir: string;
beforeAll(() => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-nothing-lost-')));
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

/** A temp file of the file server's atomic write: `.<name>.<random hex>.tmp` beside the target. */
const TEMP_OF_BIG = /^\.big\.txt\.[0-9a-f]{12}\.tmp$/;

interface KilledWrite {
  /** Bytes in the temp file when the writer died: fewer than the content means it died mid-write. */
  tempBytes: number;
}

/** Starts a real file server, asks it to write `content`, and SIGKILLs it as it starts filling its temp file. */
async function killWriterMidWrite(dir: string, content: string): Promise<KilledWrite> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(REPO_ROOT, 'dist/servers/file/main.js'), dir],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'kill-mid-write', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid as number;
  let temp: string | undefined;
  // The first 'change' of the temp file: its first bytes are written, the rest are still to come.
  const watcher = fs.watch(dir, (event, name) => {
    if (temp === undefined && event === 'change' && name !== null && TEMP_OF_BIG.test(name)) {
      temp = path.join(dir, name);
      process.kill(pid, 'SIGKILL');
    }
  });
  const outcome = await client.callTool({ name: 'write_file', arguments: { path: 'big.txt', content } }).then(
    () => 'answered',
    () => 'killed',
  );
  watcher.close();
  await client.close();
  expect(outcome).toBe('killed');
  return { tempBytes: temp !== undefined && fs.existsSync(temp) ? fs.statSync(temp).size : -1 };
}

describe('file server killed with SIGKILL mid-write', () => {
  it('leaves the old content or the new, never a torn file; only its hidden temp file remains', async () => {
    const dir = fs.mkdtempSync(path.join(workDir, 'write-'));
    const oldContent = 'old line\n'.repeat(100_000);
    // Just under the 10 MB message limit of the stdio transport, so the write takes a while.
    const newContent = 'new line\n'.repeat(1_000_000);
    fs.writeFileSync(path.join(dir, 'big.txt'), oldContent);
    const kills: KilledWrite[] = [];
    const midWrite = (kill: KilledWrite): boolean => kill.tempBytes > 0 && kill.tempBytes < newContent.length;
    // Retry the rare run where the kill landed only after the last byte (or before the first).
    while (kills.length < 5 && !kills.some(midWrite)) {
      kills.push(await killWriterMidWrite(dir, newContent));
      const after = fs.readFileSync(path.join(dir, 'big.txt'), 'utf8');
      expect(after === oldContent || after === newContent).toBe(true);
    }
    expect(kills.some(midWrite)).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'big.txt'), 'utf8')).toBe(oldContent);
    const leftovers = fs.readdirSync(dir).filter((name) => name !== 'big.txt');
    expect(leftovers.length).toBeLessThanOrEqual(kills.length);
    for (const name of leftovers) expect(name).toMatch(TEMP_OF_BIG);
  });
});

describe('research cache written by concurrent mcp-chat processes', () => {
  // One recorded feed, with its paper renumbered per process, so each process brings a paper of its own.
  const PROCESSES = 6;
  const feedOf = (n: number): string => fixture('checkerboard.xml').replaceAll('0603029', `0603${100 + n}`);
  let arxiv: FakeArxiv;
  beforeAll(async () => {
    arxiv = await FakeArxiv.start();
  });
  afterAll(() => arxiv.close());

  it('six processes saving one topic at once: every paper kept in one valid JSON file, no lock or temp file left', async () => {
    // All answers go out together, once every process has asked: their saves race for the same file.
    for (let n = 0; n < PROCESSES; n++)
      arxiv.enqueue({ ...feedResponse('checkerboard.xml'), body: feedOf(n), afterRequests: PROCESSES });
    // Only the research server, so the processes reach their saves at nearly the same moment.
    const config = path.join(workDir, 'research-only.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          research: {
            command: process.execPath,
            args: [path.join(REPO_ROOT, 'dist/servers/research/main.js')],
            env: { ARXIV_API_URL: arxiv.url, PAPERS_DIR: '${PWD}/papers' },
          },
        },
      }),
    );
    const env = cleanEnv({ HOME: workDir, MCP_CHAT_LOG_FILE: path.join(workDir, 'research.log') });
    const args = [
      '--config',
      config,
      'call',
      'research',
      'search_papers',
      JSON.stringify({ topic: 'quantum criticality' }),
    ];
    const results = await Promise.all(Array.from({ length: PROCESSES }, () => runCli(args, { cwd: workDir, env })));
    for (const result of results)
      expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining('Saved to') });
    const topicDir = path.join(workDir, 'papers/quantum_criticality');
    const cache = JSON.parse(fs.readFileSync(path.join(topicDir, 'papers_info.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const expected = Array.from({ length: PROCESSES }, (_, n) =>
      parseAtomFeed(feedOf(n)).map((paper) => paper.id),
    ).flat();
    expect(new Set(expected).size).toBe(PROCESSES);
    expect(Object.keys(cache).sort()).toEqual(expected.sort());
    expect(fs.readdirSync(topicDir)).toEqual(['papers_info.json']);
  });
});

describe('mcp-chat killed with SIGKILL mid-turn', () => {
  let ollama: FakeOllama;
  beforeAll(async () => {
    ollama = await startFakeOllama({ models: [{ name: 'llama3.2', capabilities: ['completion'] }] });
    // In the working directory, as a user's project would hold it: each run passes --trust.
    fs.writeFileSync(
      path.join(workDir, 'mcp_config.json'),
      JSON.stringify({
        mcpServers: {
          chatty: {
            command: process.execPath,
            args: [path.join(REPO_ROOT, 'test/fixtures/servers/scripted-server.mjs'), 'name=chatty'],
            // Trusted, so its read-only flood runs without asking: the flood is what is tested.
            trust: true,
          },
        },
      }),
    );
  });
  afterAll(() => ollama.close());

  it('leaves a log in which every line is whole JSON, and the next run appends cleanly', async () => {
    const logFile = path.join(workDir, 'crash.log');
    const env = cleanEnv({ HOME: workDir, OLLAMA_HOST: ollama.url, MCP_CHAT_LOG_FILE: logFile });
    for (let run = 0; run < 3; run++) {
      // The server's stderr flood goes line by line into the log: the kill lands while it is being written.
      ollama.script(textCall('chatty', 'flood_stderr', { lines: 1_000_000, width: 300 }));
      const child = spawn(process.execPath, [CLI, 'ask', '--trust', 'flood the log'], {
        cwd: workDir,
        env,
        stdio: 'ignore',
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );
      const sizeBefore = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
      await vi.waitFor(() => expect(fs.statSync(logFile).size).toBeGreaterThan(sizeBefore + 400_000), {
        ...CONDITION_WAIT,
        interval: 5,
      });
      const servers = descendants(child.pid as number);
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      // Nobody is left to stop the servers: they stop on their own when their stdin closes.
      expect(servers.length).toBeGreaterThanOrEqual(1);
      await vi.waitFor(() => expect(servers.filter(isProcessAlive)).toEqual([]), CONDITION_WAIT);
    }
    ollama.script('All good.');
    expect(await runCli(['ask', '--trust', 'still there?'], { cwd: workDir, env })).toMatchObject({
      code: 0,
      stdout: 'All good.\n',
    });
    const text = fs.readFileSync(logFile, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const records = text
      .slice(0, -1)
      .split('\n')
      .map((line) => JSON.parse(line) as { msg?: string });
    expect(records.filter((record) => record.msg === 'mcp-chat starting')).toHaveLength(4);
  });
});
