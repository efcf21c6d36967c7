/**
 * Attacks on the questions a server puts on the input line (a URL to open, the model to use, a
 * form), through the REPL's keys, with real servers over stdio: a key typed as a question appears
 * never answers it, and a form's password is never shown or kept. The wait before a question takes
 * an answer runs on a fake clock, so a key lands inside it however busy the machine is; the test
 * moves the clock on when it means the question to be ready.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cleanup } from 'ink-testing-library';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOT_READY_HINT } from '../../src/ui/question-guard.js';
import { QUIET_WAIT_MS } from '../../src/ui/use-quiet-wait.js';
import type { FakeOllama } from '../fakes/fake-ollama.js';
import { EVERYTHING } from '../helpers/everything.js';
import { fakeBrowser } from '../helpers/fake-browser.js';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { type LiveRepl, useLiveRepl } from './live-repl.js';
import { KEY, type RenderedApp } from './render-app.js';

const SIGN_IN = path.join(REPO_ROOT, 'test/fixtures/servers/sign-in-server.mjs');

const textCall = (server: string, tool: string, args: Record<string, unknown>): string =>
  JSON.stringify({ action: 'use_tool', server, tool, arguments: args });

/** Everything the model was sent, message by message. */
const sentContents = (ollama: FakeOllama): string[] =>
  ollama.chatRequests.flatMap((request) => request.messages).map((message) => message.content);

/** A new screen, once the server is up. */
async function screen(repl: LiveRepl, server: string): Promise<RenderedApp> {
  const app = await repl.newScreen();
  await app.waitForScreen(new RegExp(`${server} ✓ \\d+ {2}ready`));
  return app;
}

/** The question has waited long enough with no key typed: it takes an answer now. */
function questionReadable(): void {
  vi.advanceTimersByTime(QUIET_WAIT_MS);
}

beforeEach(() => {
  // Timeouts only: the servers, the model and Ink's rendering run as usual, the wait only as far as the test lets it.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldClearNativeTimers: true });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('question attacks in the REPL: a server asks', () => {
  const browser = fakeBrowser();
  const { opened } = browser;
  const repl = useLiveRepl({
    config: {
      mcpServers: {
        everything: {
          command: 'node',
          args: [EVERYTHING, 'stdio'],
          alwaysAllow: ['trigger-sampling-request', 'trigger-url-elicitation'],
        },
      },
    },
  });
  beforeAll(async () => {
    browser.install();
    await repl.open();
  });
  afterAll(() => browser.remove());
  const samplingRequests = () =>
    repl.ollama.chatRequests.filter((request) =>
      request.messages.some((message) => message.content.startsWith('Resource trigger-sampling-request context')),
    );

  it("typed-ahead answer: y and Enter typed as a server's URL question appears never open it", async () => {
    const app = await screen(repl, 'everything');
    const url = 'https://example.com/authorize?step=ahead';
    repl.ollama.script(textCall('everything', 'trigger-url-elicitation', { url }), 'Opened at last.');
    app.send('open the link');
    await app.waitForScreen('everything asks you to open a URL:');
    app.press('y', KEY.enter);
    // The y is typing, still on the line; the Enter answered nothing and the question waits on.
    await app.waitUntil(() => expect(app.inputLine()).toBe('y'));
    expect(app.screen()).toContain(NOT_READY_HINT);
    expect(app.screen()).not.toContain('open? y/n ›');
    questionReadable();
    await app.waitForScreen('open? y/n ›');
    expect(app.screen()).toContain('your line "y" comes back after');
    expect(fs.existsSync(opened)).toBe(false);
    // Positive control: once it could be read, a deliberate y opens it, once.
    app.send('y');
    await app.waitForAnswer('Opened at last.');
    await app.waitUntil(() => expect(fs.readFileSync(opened, 'utf8')).toBe(`${url}\n`));
    expect(app.inputLine()).toBe('y');
  });

  it('typed-ahead answer: y and Enter typed as a sampling question appears never let the server use the model', async () => {
    const app = await screen(repl, 'everything');
    repl.ollama.script(textCall('everything', 'trigger-sampling-request', { prompt: 'ahead' }), 'It was declined.');
    app.send('ask the server to sample');
    await app.waitForScreen('everything asks your model (llama3.2) for a completion:');
    app.press('y', KEY.enter);
    await app.waitUntil(() => expect(app.inputLine()).toBe('y'));
    expect(app.screen()).toContain(NOT_READY_HINT);
    expect(app.screen()).not.toContain('allow? y/a/n ›');
    // Esc declines at once, ready or not.
    app.press(KEY.esc);
    await app.waitForAnswer('It was declined.');
    expect(samplingRequests()).toEqual([]);
    expect(
      sentContents(repl.ollama).some((content) => content.includes('the user declined the sampling request')),
    ).toBe(true);
    expect(app.inputLine()).toBe('y');
  });

  it('typed-ahead answer: a paste of y and Enter in one read before the URL question is ready answers nothing', async () => {
    const app = await screen(repl, 'everything');
    const url = 'https://example.com/authorize?step=paste';
    repl.ollama.script(textCall('everything', 'trigger-url-elicitation', { url }), 'Not opened.');
    app.send('open another link');
    // The screen carries the earlier tests' questions on (a resumed session): this one is known by its URL.
    await app.waitForScreen(`everything asks you to open a URL:\n  ${url}`);
    app.press('y\r');
    await app.waitUntil(() => expect(app.inputLine()).toBe('y'));
    expect(app.screen()).not.toContain('open? y/n ›');
    app.press(KEY.esc);
    await app.waitForAnswer('Not opened.');
    expect(fs.existsSync(opened) ? fs.readFileSync(opened, 'utf8') : '').not.toContain('step=paste');
  });
});

describe('question attacks in the REPL: a server asks for a form', () => {
  const password = 'correct-horse-battery-staple';
  const repl = useLiveRepl({
    config: { mcpServers: { login: { command: 'node', args: [SIGN_IN], alwaysAllow: ['sign_in'] } } },
    log: true,
  });
  beforeAll(async () => {
    await repl.open();
  });

  /** Every file under `dir`, as text. */
  const filesUnder = (dir: string): string[] =>
    fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'));

  it('typed-ahead answer: a line typed as a form field appears is not its value, and is back in the input line after', async () => {
    const app = await screen(repl, 'login');
    repl.ollama.script(textCall('login', 'sign_in', {}), 'Signed in.');
    app.send('sign me in');
    // A message begun while the turn runs: the form appears in the middle of it.
    app.press(...'thanks ');
    await app.waitForScreen('login asks for information:');
    app.press(...'mallory', KEY.enter);
    // The line begun before was set aside; what was typed since is still typing, and Enter gave nothing.
    await app.waitUntil(() => expect(app.inputLine()).toBe('mallory'));
    expect(app.screen()).toContain(NOT_READY_HINT);
    questionReadable();
    await app.waitForScreen(/^user ›/m);
    expect(app.screen()).toContain('your line "thanks mallory" comes back after');
    expect(app.screen()).toMatch(/^user ›\s*$/m);
    app.send('ana');
    await app.waitForScreen('user = "ana"');
    // The next field is a question of its own: read before it is answered.
    await app.waitForScreen(NOT_READY_HINT);
    questionReadable();
    await app.waitForScreen(/^secret ›/m);
    app.send(password);
    await app.waitForScreen(NOT_READY_HINT);
    questionReadable();
    await app.waitForScreen('send to login? y/n ›');
    app.send('y');
    await app.waitForAnswer('Signed in.');
    const sent = sentContents(repl.ollama);
    expect(sent.some((content) => content.includes('signed in as ana with password'))).toBe(true);
    expect(sent.some((content) => content.includes('mallory'))).toBe(false);
    expect(app.inputLine()).toBe('thanks mallory');
  });

  it('form secret: a password field is masked while typed, shown (hidden), never in the session file, the export or the log, and redacted when the server echoes it', async () => {
    const app = await screen(repl, 'login');
    repl.ollama.script(textCall('login', 'sign_in', {}), 'Signed in again.');
    app.send('sign me in again');
    // Each field is answered once it is ready: `waitFor` moves the fake clock on as it waits.
    await app.waitForScreen(/^user ›/m);
    app.send('ana');
    await app.waitForScreen(/^secret ›/m);
    app.press(password);
    await app.waitForScreen(`secret › ${'•'.repeat(password.length)}`);
    expect(app.screen()).not.toContain(password);
    app.press(KEY.enter);
    await app.waitForScreen('secret = (hidden)');
    await app.waitForScreen('send to login? y/n ›');
    app.send('y');
    await app.waitForAnswer('Signed in again.');
    expect(app.screen()).not.toContain(password);
    // What the server echoed (its result, its stderr, its log message) has the password hidden.
    const echoed = sentContents(repl.ollama).filter((content) => content.includes('signed in as ana'));
    expect(echoed.at(-1)).toContain('with password [REDACTED]');
    expect(echoed.join('\n')).not.toContain(password);
    const exported = path.join(repl.workDir, 'exported');
    for (const file of [`${exported}.md`, `${exported}.json`]) {
      app.send(`/export ${file}`);
      await app.waitForScreen(`to ${file}.`);
    }
    await repl.quit(app);
    const log = fs.readFileSync(repl.logFile, 'utf8');
    expect(log).toContain('signed in as ana with password [REDACTED]');
    expect(log).not.toContain(password);
    const saved = filesUnder(path.join(repl.stateHome, 'mcp-chat'));
    expect(saved.join('\n')).toContain('secret = (hidden)');
    expect(saved.join('\n')).not.toContain(password);
    for (const file of [`${exported}.md`, `${exported}.json`])
      expect(fs.readFileSync(file, 'utf8')).not.toContain(password);
  });
});
