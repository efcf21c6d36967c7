/**
 * A server's requests to the person at the REPL (tmux, the built binary, the fake Ollama,
 * server-everything): may it use the model (and may the completion go back), a form filled in
 * field by field with what is wrong said as it is typed, and a URL opened only after a yes (and
 * only a web page's).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EVERYTHING, everythingOverHttp } from '../helpers/everything.js';
import { killAll } from '../helpers/spawn-server.js';
import { SCREEN_WAIT, useReplSession } from '../helpers/repl-session.js';
import { TmuxPane } from '../helpers/tmux.js';

const textCall = (tool: string, args: Record<string, unknown>): string =>
  JSON.stringify({ action: 'use_tool', server: 'everything', tool, arguments: args });

const browserDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-browser-')));
const opened = path.join(browserDir, 'opened.txt');
const browser = path.join(browserDir, 'browser.sh');
fs.writeFileSync(browser, `#!/bin/sh\necho "$1" >> '${opened}'\n`, { mode: 0o755 });
afterAll(() => fs.rmSync(browserDir, { recursive: true, force: true }));

describe.skipIf(!TmuxPane.available())('a server asks the user, in the REPL', () => {
  const repl = useReplSession({
    height: 60,
    env: { BROWSER: browser },
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
  /** What the model was sent as the result of the last tool call. */
  const lastToolResult = (): string =>
    repl.ollama.chatRequests
      .flatMap((request) => request.messages)
      .filter((message) => message.content.includes('Raw result') || message.content.includes('LLM sampling result'))
      .at(-1)?.content ?? '';
  const samplingRequests = () =>
    repl.ollama.chatRequests.filter((request) =>
      request.messages.some((message) => message.content.startsWith('Resource trigger-sampling-request context')),
    );

  it('sampling: n declines and nothing reaches the model', async () => {
    await repl.shows('ready');
    repl.ollama.script(textCall('trigger-sampling-request', { prompt: 'zebra' }), 'It was declined.');
    repl.pane.type('ask the server to sample', 'Enter');
    await repl.shows('everything asks your model (llama3.2) for a completion:');
    await repl.shows('user: Resource trigger-sampling-request context: zebra');
    await repl.shows('at most 100 tokens · temperature 0.7');
    await repl.shows('use the model? y/a/n ›');
    repl.pane.type('n', 'Enter');
    await repl.shows('It was declined.');
    expect(samplingRequests()).toEqual([]);
    const sent = repl.ollama.chatRequests.flatMap((request) => request.messages).map((message) => message.content);
    expect(sent.some((content) => content.includes('the user declined the sampling request'))).toBe(true);
  });

  it('sampling: y runs it on the model, the completion is shown, and y sends it back', async () => {
    repl.ollama.script(textCall('trigger-sampling-request', { prompt: 'zebra' }), 'Zebras are striped.', 'Done.');
    repl.pane.type('sample again', 'Enter');
    await repl.shows('use the model? y/a/n ›');
    repl.pane.type('y', 'Enter');
    await repl.shows('The completion for everything (llama3.2):');
    await repl.shows('send? y/n ›');
    repl.pane.type('y', 'Enter');
    await repl.shows('Done.');
    expect(samplingRequests()).toHaveLength(1);
    expect(lastToolResult()).toContain('Zebras are striped.');
  });

  it('Esc while the model writes for a server stops the completion with the turn', async () => {
    repl.ollama.script(textCall('trigger-sampling-request', { prompt: 'slowly' }), { text: 'Never', hang: true });
    repl.pane.type('sample slowly', 'Enter');
    await repl.shows('use the model? y/a/n ›');
    repl.pane.type('y', 'Enter');
    const sampling = () =>
      repl.ollama.requests.find(
        (request) => request.path === '/api/chat' && JSON.stringify(request.body).includes('context: slowly'),
      );
    await vi.waitFor(() => expect(sampling()).toBeDefined(), SCREEN_WAIT);
    repl.pane.type('', 'Escape');
    await repl.shows('Cancelled.');
    await vi.waitFor(() => expect(sampling()?.clientAborted).toBe(true), SCREEN_WAIT);
  });

  it('a form is filled in field by field; what is wrong is said; the server gets typed values', async () => {
    repl.ollama.script(textCall('trigger-elicitation-request', {}), 'Thanks.');
    repl.pane.type('ask me things', 'Enter');
    await repl.shows('everything asks for information:');
    await repl.shows('name ›');
    repl.pane.type('Ana Lima', 'Enter');
    await repl.shows('check ›');
    repl.pane.type('y', 'Enter');
    await repl.shows('firstLine ›');
    repl.pane.type('', 'Enter');
    await repl.shows('email ›');
    repl.pane.type('not-an-email');
    await repl.shows('needs an email address, like ana@example.com');
    repl.pane.type('', 'Enter');
    await repl.shows('email needs an email address');
    repl.pane.type('', 'C-u');
    repl.pane.type('ana@example.com', 'Enter');
    await repl.shows('homepage ›');
    repl.pane.type('', 'Enter');
    await repl.shows('birthdate ›');
    repl.pane.type('1990-05-17', 'Enter');
    await repl.shows('integer ›');
    repl.pane.type('150', 'Enter');
    await repl.shows('integer needs at most 100.');
    repl.pane.type('', 'C-u');
    repl.pane.type('7', 'Enter');
    await repl.shows('number ›');
    repl.pane.type('', 'Enter');
    await repl.shows('untitledSingleSelectEnum ›');
    repl.pane.type('3', 'Enter');
    await repl.shows('untitledMultipleSelectEnum ›');
    repl.pane.type('1,2', 'Enter');
    await repl.shows('titledSingleSelectEnum ›');
    repl.pane.type('Wonder Woman', 'Enter');
    await repl.shows('titledMultipleSelectEnum ›');
    repl.pane.type('', 'Enter');
    await repl.shows('legacyTitledEnum ›');
    repl.pane.type('Dogs', 'Enter');
    await repl.shows('send to everything? y/n ›');
    repl.pane.type('y', 'Enter');
    await repl.shows('Thanks.');
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
    repl.ollama.script(textCall('trigger-elicitation-request-async', {}), 'Got it.');
    repl.pane.type('ask me as a task', 'Enter');
    await repl.shows('name ›');
    repl.pane.type('Rui', 'Enter');
    await repl.shows('favoriteColor ›');
    repl.pane.type('Blue', 'Enter');
    await repl.shows('agreeToTerms ›');
    repl.pane.type('', 'Enter');
    await repl.shows('send to everything? y/n ›');
    repl.pane.type('y', 'Enter');
    await repl.shows('Got it.');
    const sent = repl.ollama.chatRequests.flatMap((request) => request.messages).map((message) => message.content);
    const result = sent.find((content) => content.includes('Rui') && content.includes('Blue'));
    expect(result).toBeDefined();
    // The server says so when a client answered at once instead of as a task.
    expect(result).not.toContain('[SYNC]');
  });

  it('Esc cancels a form: the server hears "cancel"', async () => {
    repl.ollama.script(textCall('trigger-elicitation-request', {}), 'Cancelled then.');
    repl.pane.type('ask me again', 'Enter');
    await repl.shows('name ›');
    repl.pane.type('', 'Escape');
    await repl.shows('Cancelled then.');
    expect(lastToolResult()).toContain('"action": "cancel"');
  });

  it('a research task stops for input: the question is asked, the answer taken, and the task completes', async () => {
    repl.ollama.script(textCall('simulate-research-query', { topic: 'python', ambiguous: true }), 'Researched.');
    repl.pane.type('research python', 'Enter');
    await repl.shows('Which interpretation of the topic do you mean?');
    await repl.shows('interpretation ›');
    repl.pane.type('Monty Python comedy group', 'Enter');
    await repl.shows('send to everything? y/n ›');
    repl.pane.type('y', 'Enter');
    await repl.shows('Researched.');
    const sent = repl.ollama.chatRequests.flatMap((request) => request.messages).map((message) => message.content);
    expect(sent.some((content) => content.includes('After receiving clarification ("comedy")'))).toBe(true);
  });

  it('URL scheme: a server asking to open file:///etc/passwd is refused, saying why, and $BROWSER is never run', async () => {
    await repl.shows('ready');
    const openedBefore = fs.existsSync(opened) ? fs.readFileSync(opened, 'utf8') : '';
    repl.ollama.script(textCall('trigger-url-elicitation', { url: 'file:///etc/passwd' }), 'It was refused.');
    repl.pane.type('open the password file', 'Enter');
    await repl.shows('It was refused.');
    const screen = repl.pane.screen();
    expect(screen).toContain('everything asked you to open file:///etc/passwd; refused: only http and https URLs');
    expect(screen).toContain('and this one is file:');
    // Refused before the question: nothing to say yes to.
    expect(screen).not.toContain('open? y/n ›');
    expect(fs.existsSync(opened) ? fs.readFileSync(opened, 'utf8') : '').toBe(openedBefore);
    const sent = repl.ollama.chatRequests.flatMap((request) => request.messages).map((message) => message.content);
    expect(sent.some((content) => content.includes('User declined to open the URL'))).toBe(true);
  });

  it('a URL opens only after a yes', async () => {
    const url = 'https://example.com/authorize?step=1';
    repl.ollama.script(textCall('trigger-url-elicitation', { url }), 'Not opened.');
    repl.pane.type('open the link', 'Enter');
    await repl.shows('everything asks you to open a URL:');
    await repl.shows('open? y/n ›');
    repl.pane.type('n', 'Enter');
    await repl.shows('Not opened.');
    expect(fs.existsSync(opened)).toBe(false);
    repl.ollama.script(textCall('trigger-url-elicitation', { url }), 'Opened.');
    repl.pane.type('open it this time', 'Enter');
    await repl.shows('open? y/n ›');
    repl.pane.type('y', 'Enter');
    await repl.shows('Opened.');
    expect(fs.readFileSync(opened, 'utf8')).toBe(`${url}\n`);
  });
});

describe.skipIf(!TmuxPane.available())('a server over Streamable HTTP asks the user, in the REPL', () => {
  let url = '';
  beforeAll(async () => {
    url = await everythingOverHttp();
  });
  afterAll(() => killAll());
  const repl = useReplSession({
    config: () => ({
      mcpServers: {
        everything: { url, alwaysAllow: ['trigger-sampling-request', 'trigger-elicitation-request'] },
      },
    }),
  });

  it('sampling is asked, run and sent back; a form is asked and Esc cancels it', async () => {
    await repl.shows('ready');
    repl.ollama.script(textCall('trigger-sampling-request', { prompt: 'okapi' }), 'Okapis are shy.', 'Done.');
    repl.pane.type('sample over http', 'Enter');
    await repl.shows('everything asks your model (llama3.2) for a completion:');
    repl.pane.type('y', 'Enter');
    await repl.shows('send? y/n ›');
    repl.pane.type('y', 'Enter');
    await repl.shows('Done.');
    const sent = () =>
      repl.ollama.chatRequests.flatMap((request) => request.messages).map((message) => message.content);
    expect(sent().some((content) => content.includes('Okapis are shy.'))).toBe(true);
    repl.ollama.script(textCall('trigger-elicitation-request', {}), 'Cancelled then.');
    repl.pane.type('ask me over http', 'Enter');
    await repl.shows('name ›');
    repl.pane.type('', 'Escape');
    await repl.shows('Cancelled then.');
    expect(sent().some((content) => content.includes('"action": "cancel"'))).toBe(true);
  });
});
