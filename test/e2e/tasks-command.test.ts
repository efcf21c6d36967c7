/**
 * `mcp-chat tasks [--json]` through the built binary: the tasks a remote server keeps between
 * sessions (an SDK server on 127.0.0.1 with one task store for every session, as a server that
 * runs long work would have), listed with their status, message and times, without the token
 * the entry gives the server; and a server started for the command (stdio) that has none.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { closePlainServers, plainServer } from '../helpers/spawn-server.js';

const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const RUN_MS = 60_000;
const TOKEN = 'keeper-token-5f2b9c71';

let workDir: string;
let store: InMemoryTaskStore;
let url: string;

/** Stateless Streamable HTTP: a server per request, all over the one store. */
const answer: http.RequestListener = (req, res) => {
  const server = new McpServer(
    { name: 'task-keeper', version: '1.0.0' },
    { capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore: store },
  );
  server.registerTool('noop', { description: 'does nothing' }, () => ({ content: [] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  void server.connect(transport).then(() => transport.handleRequest(req, res));
};

beforeAll(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-tasks-cli-')));
  store = new InMemoryTaskStore();
  url = await plainServer(answer);
});
afterAll(async () => {
  store.cleanup();
  await closePlainServers();
  fs.rmSync(workDir, { recursive: true, force: true });
});

function cli(args: string[], mcpServers: Record<string, unknown>) {
  const config = path.join(workDir, 'mcp_config.json');
  fs.writeFileSync(config, JSON.stringify({ mcpServers }));
  const env = cleanEnv({ HOME: workDir, KEEPER_TOKEN: TOKEN, MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl') });
  return runCli(['--config', config, 'tasks', ...args], { cwd: workDir, env, timeoutMs: RUN_MS });
}

const keeper = () => ({
  keeper: { type: 'http', url, headers: { Authorization: 'Bearer ${KEEPER_TOKEN}' } },
});

describe('mcp-chat tasks', () => {
  it(
    "--json lists the server's tasks with status, message and times, the entry's token hidden; the text form too",
    async () => {
      const request = { method: 'tools/call', params: { name: 'crawl' } };
      const crawling = await store.createTask({ ttl: 60_000, pollInterval: 1_000 }, 1, request);
      await store.updateTaskStatus(crawling.taskId, 'working', `Crawling page 3 of 10 as ${TOKEN}`);
      const done = await store.createTask({ ttl: 60_000 }, 2, request);
      await store.storeTaskResult(done.taskId, 'completed', { content: [] });

      const json = await cli(['--json'], keeper());
      expect(json.code).toBe(0);
      const tasks = JSON.parse(json.stdout) as Record<string, unknown>[];
      expect(tasks).toHaveLength(2);
      expect(tasks).toContainEqual({
        server: 'keeper',
        taskId: crawling.taskId,
        status: 'working',
        statusMessage: 'Crawling page 3 of 10 as [REDACTED]',
        createdAt: crawling.createdAt,
        lastUpdatedAt: expect.any(String),
      });
      expect(tasks).toContainEqual(expect.objectContaining({ taskId: done.taskId, status: 'completed' }));
      expect(json.stdout).not.toContain(TOKEN);

      const text = await cli([], keeper());
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^ {2}keeper {2}working {4}created [\d:]+, updated [\d:]+$/m);
      expect(text.stdout).toContain(`\n    ${crawling.taskId} · Crawling page 3 of 10 as [REDACTED]\n`);
      expect(text.stdout).toContain(done.taskId);
      expect(text.stdout).not.toContain(TOKEN);
    },
    RUN_MS,
  );

  it(
    'a server started for the command has no tasks yet: an empty list, and the text says so',
    async () => {
      const everything = { everything: { command: 'node', args: [EVERYTHING, 'stdio'] } };
      const json = await cli(['--json'], everything);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual([]);
      const text = await cli([], everything);
      expect(text.stdout.trim()).toBe('No tasks: no running server knows of any.');
    },
    RUN_MS,
  );
});
