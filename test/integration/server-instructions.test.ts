/**
 * Servers' `instructions` reach the model: server-everything (long ones, capped) and our
 * calculator (short ones), over stdio, in the first `/api/chat` request's system message, under
 * each server's heading in text tool mode and in "Server notes" natively; a value the entry gives
 * the server is hidden in them; the screen never shows them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ToolMode, TurnEvent } from '../../src/vocabulary/types.js';
import { McpHost } from '../../src/mcp/host.js';
import { MAX_INSTRUCTIONS_CHARS } from '../../src/mcp/server-instructions.js';
import { createOllamaClient } from '../../src/ollama/client.js';
import { ChatSession } from '../../src/session/chat-session.js';
import { silentLogger } from '../../src/shared/log.js';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.js';
import { builtServer, REPO_ROOT, stdioServer } from '../helpers/server-configs.js';
import { testRuntime } from '../helpers/test-session.js';

const EVERYTHING_DIR = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist');
/** What server-everything sends as its instructions (1,574 characters). */
const EVERYTHING_SAYS = fs.readFileSync(path.join(EVERYTHING_DIR, 'docs/instructions.md'), 'utf8').trim();
/** A word of those instructions the entry also gives the server, as a value in its env: it is hidden. */
const GIVEN_VALUE = 'GZIP_ALLOWED_DOMAINS';
const CALCULATOR_SAYS =
  'Use evaluate for any arithmetic, math function or unit conversion instead of computing it yourself.';

let host: McpHost;
const fakes: FakeOllama[] = [];

beforeAll(async () => {
  host = new McpHost(
    [
      stdioServer('everything', [path.join(EVERYTHING_DIR, 'index.js'), 'stdio'], { env: { TOKEN: GIVEN_VALUE } }),
      builtServer('calculator'),
    ],
    { log: silentLogger },
  );
  await host.start();
  expect(host.statuses().map((status) => status.state)).toEqual(['ready', 'ready']);
}, 30_000);
afterAll(() => host.close());
afterEach(() => Promise.all(fakes.splice(0).map((fake) => fake.close())));

/** One turn answered at once; the system message of the first request, and the turn's events. */
async function firstSystemMessage(toolMode: ToolMode): Promise<{ system: string; events: TurnEvent[] }> {
  const ollama = await startFakeOllama({ models: [{ name: 'qwen3' }], replies: ['Hello.'] });
  fakes.push(ollama);
  // A context large enough that every tool is offered, so every server has its section.
  const runtime = testRuntime({ baseUrl: ollama.url, model: 'qwen3', toolMode, numCtx: 65_536 });
  const session = new ChatSession(runtime, host, createOllamaClient(runtime.config.ollama, silentLogger));
  const events: TurnEvent[] = [];
  for await (const event of session.runTurn('hello')) events.push(event);
  const system = ollama.chatRequests[0]?.messages[0];
  expect(system?.role).toBe('system');
  return { system: system?.content ?? '', events };
}

const quoted = (text: string): string =>
  text
    .split('\n')
    .map((line) => (line.trim() === '' ? '>' : `> ${line}`))
    .join('\n');

/** What the model reads of server-everything's instructions: the value hidden, then the first 1,000 characters, the cut said. */
const HIDDEN = EVERYTHING_SAYS.replace(GIVEN_VALUE, '[REDACTED]');
const EVERYTHING_CAPPED = quoted(
  `${HIDDEN.slice(0, MAX_INSTRUCTIONS_CHARS)}\n[… truncated: showing ${MAX_INSTRUCTIONS_CHARS} of ${HIDDEN.length} characters]`,
);

describe('server instructions in the first request', () => {
  it('text tool mode: under each server’s heading, everything’s capped at 1,000 characters with the cut said', async () => {
    const { system } = await firstSystemMessage('json');
    expect(system).toContain(
      `## Server "calculator"\nIts instructions, in its own words:\n> ${CALCULATOR_SAYS}\n- evaluate:`,
    );
    expect(system).toContain(`## Server "everything"\nIts instructions, in its own words:\n${EVERYTHING_CAPPED}\n- `);
    expect(system).not.toContain('Easter Egg');
  });

  it('native mode: in a short "Server notes" section', async () => {
    const { system } = await firstSystemMessage('native');
    const notes = system.slice(system.indexOf('\n# Server notes\n'));
    expect(notes).toContain(`## Server "everything"\nIts instructions, in its own words:\n${EVERYTHING_CAPPED}`);
    expect(notes).toContain(`## Server "calculator"\nIts instructions, in its own words:\n> ${CALCULATOR_SAYS}`);
  });

  it('a value the entry gives the server is hidden in its instructions; the screen shows none of them', async () => {
    const { system, events } = await firstSystemMessage('json');
    expect(system).toContain('allowed domains by `[REDACTED]`');
    expect(system).not.toContain(GIVEN_VALUE);
    expect(JSON.stringify(events)).not.toContain('Server Instructions');
  });
});
