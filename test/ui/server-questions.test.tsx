/**
 * A server's requests to the person at the REPL (the chat wired as the program wires it,
 * server-everything over stdio and over Streamable HTTP, the fake Ollama): may it use the model
 * (one question, its completion going back on a yes), a form filled in field by field with what is wrong said as it
 * is typed, and a URL opened only after a yes. Each test draws a screen of its own over the one chat.
 */
import fs from 'node:fs';
import { cleanup } from 'ink-testing-library';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FakeOllama } from '../fakes/fake-ollama.js';
import { EVERYTHING, everythingOverHttp } from '../helpers/everything.js';
import { fakeBrowser } from '../helpers/fake-browser.js';
import { killAll } from '../helpers/spawn-server.js';
import { type LiveRepl, useLiveRepl } from './live-repl.js';
import { KEY, type RenderedApp } from './render-app.js';

const textCall = (tool: string, args: Record<string, unknown>): string =>
  JSON.stringify({ action: 'use_tool', server: 'everything', tool, arguments: args });

/** Everything the model was sent, message by message. */
const sentContents = (ollama: FakeOllama): string[] =>
  ollama.chatRequests.flatMap((request) => request.messages).map((message) => message.content);

/** A new screen, once the server is up. */
async function screen(repl: LiveRepl): Promise<RenderedApp> {
  const app = await repl.newScreen();
  await app.waitForScreen(/everything ✓ \d+ {2}ready/);
  return app;
}

afterEach(() => cleanup());

describe('a server asks the user, in the REPL', () => {
  const browser = fakeBrowser();
  const { opened } = browser;
  const repl = useLiveRepl({
    config: {
      mcpServers: {
        everything: {
          command: 'node',
          args: [EVERYTHING, 'stdio'],
          alwaysAllow: [
            'trigger-sampling-request',
            'trigger-elicitation-request',
            'trigger-elicitation-request-async',
            'trigger-url-elicitation',
            'simulate-research-query',
          ],
        },
      },
    },
  });
  beforeAll(async () => {
    browser.install();
    await repl.open();
  });
  afterAll(() => browser.remove());

  /** What the model was sent as the result of the last tool call. */
  const lastToolResult = (): string =>
    sentContents(repl.ollama)
      .filter((content) => content.includes('Raw result') || content.includes('LLM sampling result'))
      .at(-1) ?? '';
  const samplingRequests = () =>
    repl.ollama.chatRequests.filter((request) =>
      request.messages.some((message) => message.content.startsWith('Resource trigger-sampling-request context')),
    );

  it('sampling: n declines and nothing reaches the model', async () => {
    const app = await screen(repl);
    repl.ollama.script(textCall('trigger-sampling-request', { prompt: 'zebra' }), 'It was declined.');
    app.send('ask the server to sample');
    await app.waitForScreen('allow? y/a/n ›');
    app.send('n');
    await app.waitForAnswer('It was declined.');
    expect(samplingRequests()).toEqual([]);
    expect(
      sentContents(repl.ollama).some((content) => content.includes('the user declined the sampling request')),
    ).toBe(true);
  });

  it('sampling is one question: what the server asks and the model that answers; y sends the completion back', async () => {
    const app = await screen(repl);
    repl.ollama.script(textCall('trigger-sampling-request', { prompt: 'zebra' }), 'Zebras are striped.', 'Done.');
    app.send('sample again');
    await app.waitForScreen('everything asks your model (llama3.2) for a completion:');
    await app.waitForScreen('system: You are a helpful test server.');
    await app.waitForScreen('user: Resource trigger-sampling-request context: zebra');
    await app.waitForScreen('at most 100 tokens · temperature 0.7');
    await app.waitForScreen('Allow it? y once, a always for everything this session, n deny.');
    await app.waitForScreen('allow? y/a/n ›');
    app.send('y');
    await app.waitForAnswer('Done.');
    expect(samplingRequests()).toHaveLength(1);
    expect(lastToolResult()).toContain('Zebras are striped.');
    // Nothing else was asked: not the completion before it went back.
    expect(app.screen()).not.toContain('send? y/n');
  });

  it('Esc while the model writes for a server stops the completion with the turn', async () => {
    const app = await screen(repl);
    repl.ollama.script(textCall('trigger-sampling-request', { prompt: 'slowly' }), { text: 'Never', hang: true });
    app.send('sample slowly');
    await app.waitForScreen('allow? y/a/n ›');
    app.send('y');
    const sampling = () =>
      repl.ollama.requests.find(
        (request) => request.path === '/api/chat' && JSON.stringify(request.body).includes('context: slowly'),
      );
    await app.waitUntil(() => expect(sampling()).toBeDefined());
    app.press(KEY.esc);
    await app.waitForScreen('Cancelled.');
    await app.waitUntil(() => expect(sampling()?.clientAborted).toBe(true));
  });

  it('a form is filled in field by field; what is wrong is said; the server gets typed values', async () => {
    const app = await screen(repl);
    repl.ollama.script(textCall('trigger-elicitation-request', {}), 'Thanks.');
    app.send('ask me things');
    await app.waitForScreen('everything asks for information:');
    const answer = async (field: string, value: string): Promise<void> => {
      await app.waitForScreen(new RegExp(`^${field} ›`, 'm'));
      app.send(value);
    };
    await answer('name', 'Ana Lima');
    await answer('check', 'y');
    await answer('firstLine', '');
    await app.waitForScreen(/^email ›/m);
    app.press('not-an-email');
    await app.waitForScreen('needs an email address, like ana@example.com');
    app.press(KEY.enter);
    await app.waitForScreen('email needs an email address');
    // The refused entry stays on the line, to be fixed rather than typed again.
    await app.waitForScreen(/^email › not-an-email/m);
    app.press('\u0015');
    await answer('email', 'ana@example.com');
    await answer('homepage', '');
    await answer('birthdate', '1990-05-17');
    await answer('integer', '150');
    await app.waitForScreen('integer needs at most 100.');
    app.press('\u0015');
    await answer('integer', '7');
    await answer('number', '');
    await answer('untitledSingleSelectEnum', '3');
    await answer('untitledMultipleSelectEnum', '1,2');
    await answer('titledSingleSelectEnum', 'Wonder Woman');
    await answer('titledMultipleSelectEnum', '');
    await answer('legacyTitledEnum', '2');
    await app.waitForScreen('send to everything? y/n ›');
    // A choice is echoed by the title the list showed, not the value the server gets.
    expect(app.screen()).toContain('titledSingleSelectEnum = Wonder Woman');
    expect(app.screen()).toContain('legacyTitledEnum = Dogs');
    expect(app.screen()).not.toContain('= "hero-3"');
    app.send('y');
    await app.waitForAnswer('Thanks.');
    const result = lastToolResult();
    for (const expected of [
      '"name": "Ana Lima"',
      '"check": true',
      '"firstLine": "It was a dark and stormy night."',
      '"email": "ana@example.com"',
      '"birthdate": "1990-05-17"',
      '"integer": 7',
      '"number": 3.14',
      '"untitledSingleSelectEnum": "Joey"',
      '"titledSingleSelectEnum": "hero-3"',
      '"legacyTitledEnum": "pet-2"',
    ])
      expect(result).toContain(expected);
    expect(result).toMatch(/"untitledMultipleSelectEnum": \[\s*"Guitar",\s*"Piano"\s*\]/);
    expect(result).not.toContain('"homepage"');
  });

  it('a form the server sends as a task is asked the same way; the server polls for the answer', async () => {
    const app = await screen(repl);
    repl.ollama.script(textCall('trigger-elicitation-request-async', {}), 'Got it.');
    app.send('ask me as a task');
    for (const [field, value] of [
      ['name', 'Rui'],
      ['favoriteColor', 'Blue'],
      ['agreeToTerms', ''],
    ] as const) {
      await app.waitForScreen(new RegExp(`^${field} ›`, 'm'));
      app.send(value);
    }
    await app.waitForScreen('send to everything? y/n ›');
    app.send('y');
    await app.waitForAnswer('Got it.');
    const result = sentContents(repl.ollama).find((content) => content.includes('Rui') && content.includes('Blue'));
    expect(result).toBeDefined();
    // The server says so when a client answered at once instead of as a task.
    expect(result).not.toContain('[SYNC]');
  });

  it('Esc cancels a form: the server hears "cancel"', async () => {
    const app = await screen(repl);
    repl.ollama.script(textCall('trigger-elicitation-request', {}), 'Cancelled then.');
    app.send('ask me again');
    await app.waitForScreen(/^name ›/m);
    app.press(KEY.esc);
    await app.waitForAnswer('Cancelled then.');
    expect(lastToolResult()).toContain('"action": "cancel"');
  });

  it('a research task stops for input: the question is asked, the answer taken, and the task completes', async () => {
    const app = await screen(repl);
    repl.ollama.script(textCall('simulate-research-query', { topic: 'python', ambiguous: true }), 'Researched.');
    app.send('research python');
    await app.waitForScreen('Which interpretation of the topic do you mean?');
    await app.waitForScreen(/^interpretation ›/m);
    app.send('Monty Python comedy group');
    await app.waitForScreen('send to everything? y/n ›');
    app.send('y');
    await app.waitForAnswer('Researched.');
    expect(
      sentContents(repl.ollama).some((content) => content.includes('After receiving clarification ("comedy")')),
    ).toBe(true);
  });

  it('URL scheme: a server asking to open file:///etc/passwd is refused, saying why, and $BROWSER is never run', async () => {
    const app = await screen(repl);
    repl.ollama.script(textCall('trigger-url-elicitation', { url: 'file:///etc/passwd' }), 'It was refused.');
    app.send('open the password file');
    await app.waitForAnswer('It was refused.');
    await app.waitForScreen('everything asked you to open file:///etc/passwd; refused: only http and https URLs');
    // Refused before the question: nothing to say yes to.
    expect(app.screen()).not.toContain('open? y/n ›');
    expect(fs.existsSync(opened)).toBe(false);
    const sent = repl.ollama.chatRequests.flatMap((request) => request.messages).map((message) => message.content);
    expect(sent.some((content) => content.includes('User declined to open the URL'))).toBe(true);
  });

  it('a URL opens only after a yes', async () => {
    const app = await screen(repl);
    const url = 'https://example.com/authorize?step=1';
    repl.ollama.script(textCall('trigger-url-elicitation', { url }), 'Not opened.');
    app.send('open the link');
    await app.waitForScreen('everything asks you to open a URL:');
    await app.waitForScreen('open? y/n ›');
    app.send('n');
    await app.waitForAnswer('Not opened.');
    expect(fs.existsSync(opened)).toBe(false);
    repl.ollama.script(textCall('trigger-url-elicitation', { url }), 'Opened.');
    app.send('open it this time');
    await app.waitForScreen('open? y/n ›');
    app.send('y');
    await app.waitForAnswer('Opened.');
    await app.waitUntil(() => expect(fs.readFileSync(opened, 'utf8')).toBe(`${url}\n`));
  });
});

describe('a server over Streamable HTTP asks the user, in the REPL', () => {
  let url = '';
  beforeAll(async () => {
    url = await everythingOverHttp();
  });
  afterAll(() => killAll());
  const repl = useLiveRepl({
    config: () => ({
      mcpServers: {
        everything: { url, alwaysAllow: ['trigger-sampling-request', 'trigger-elicitation-request'] },
      },
    }),
  });
  beforeAll(async () => {
    await repl.open();
  });

  it('sampling is asked, run and sent back; a form is asked and Esc cancels it', async () => {
    const app = await screen(repl);
    repl.ollama.script(textCall('trigger-sampling-request', { prompt: 'okapi' }), 'Okapis are shy.', 'Done.');
    app.send('sample over http');
    await app.waitForScreen('everything asks your model (llama3.2) for a completion:');
    await app.waitForScreen('allow? y/a/n ›');
    app.send('y');
    await app.waitForAnswer('Done.');
    expect(sentContents(repl.ollama).some((content) => content.includes('Okapis are shy.'))).toBe(true);
    repl.ollama.script(textCall('trigger-elicitation-request', {}), 'Cancelled then.');
    app.send('ask me over http');
    await app.waitForScreen(/^name ›/m);
    app.press(KEY.esc);
    await app.waitForAnswer('Cancelled then.');
    expect(sentContents(repl.ollama).some((content) => content.includes('"action": "cancel"'))).toBe(true);
  });
});
