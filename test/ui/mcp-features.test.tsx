/**
 * What servers offer besides tools, as a person sees it in the REPL (the chat wired as the program
 * wires it, server-everything over stdio, the fake Ollama): `help` lists the prompts,
 * `/server:prompt` runs one (asking for what it needs), an @mention attaches a resource, Tab
 * completes what the server suggests, and a long call shows its progress while it runs. Each test
 * draws a screen of its own over the one chat.
 */
import { cleanup } from 'ink-testing-library';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING } from '../helpers/everything.js';
import { useLiveRepl } from './live-repl.js';
import { KEY, type RenderedApp } from './render-app.js';

const textCall = (tool: string, args: Record<string, unknown>): string =>
  JSON.stringify({ action: 'use_tool', server: 'everything', tool, arguments: args });

afterEach(() => cleanup());

/** The input line while the REPL asks for `name`, holding `value`. */
const asked = (name: string, value = ''): RegExp => new RegExp(`^${name} ›${value && ` ${value}`}\\s*$`, 'm');

describe('MCP features in the REPL', () => {
  const repl = useLiveRepl({
    config: {
      mcpServers: {
        everything: {
          command: 'node',
          args: [EVERYTHING, 'stdio'],
          trust: true,
          alwaysAllow: ['toggle-subscriber-updates', 'gzip-file-as-resource'],
        },
      },
    },
  });
  beforeAll(async () => {
    await repl.open();
  });

  /** A new screen, once the server is up and its prompts and resources are known (Tab and `/name` use them). */
  async function screen(): Promise<RenderedApp> {
    const app = await repl.newScreen();
    await app.waitForScreen(/everything ✓ \d+ {2}ready/);
    await app.waitUntil(() => expect(repl.session.offers.current.prompts.length).toBeGreaterThan(0));
    return app;
  }

  /** The last user message the model was sent. */
  const lastSent = () =>
    repl.ollama.chatRequests
      .filter((request) => request.messages.length > 0)
      .at(-1)
      ?.messages.at(-1);

  it('help lists the prompts of the running servers, with how to run them', async () => {
    const app = await screen();
    app.send('help');
    await app.waitForScreen("Servers' prompts (their messages start a turn):");
    await app.waitForScreen('/everything:args-prompt city=<city> [state=…]');
  });

  it('/everything:simple-prompt runs the prompt: its messages go to the model, the screen says so', async () => {
    const app = await screen();
    repl.ollama.script('Here is my reply to the prompt.');
    app.send('/everything:simple-prompt');
    await app.waitForAnswer('Here is my reply to the prompt.');
    expect(app.screen()).toContain('prompt everything:simple-prompt: 1 message');
    expect(lastSent()).toEqual({ role: 'user', content: 'This is a simple prompt without arguments.' });
  });

  it('a prompt without its required argument asks for it, then runs with the answer', async () => {
    const app = await screen();
    repl.ollama.script('Sunny in Lisbon.');
    app.send('/everything:args-prompt');
    await app.waitForScreen('everything:args-prompt needs city (Name of the city): type each and press Enter');
    await app.waitForScreen(asked('city'));
    app.send('Lisbon');
    await app.waitForAnswer('Sunny in Lisbon.');
    expect(lastSent()).toEqual({ role: 'user', content: "What's weather in Lisbon?" });
  });

  it('Esc leaves the question and nothing reaches the model', async () => {
    const app = await screen();
    const requests = repl.ollama.chatRequests.length;
    app.send('/everything:args-prompt');
    await app.waitForScreen(asked('city'));
    app.press(KEY.esc);
    await app.waitForScreen('Cancelled /everything:args-prompt.');
    expect(app.screen()).not.toContain('city ›');
    expect(repl.ollama.chatRequests.length).toBe(requests);
  });

  it('Tab completes a prompt argument from the server, narrowed by the one before it, on the line and when asked', async () => {
    const app = await screen();
    const line = (text: string) => app.waitUntil(() => expect(app.inputLine()).toBe(text));
    app.press('/everything:completable-prompt department=Eng', '\t');
    await line('/everything:completable-prompt department=Engineering');
    app.press('name=A', '\t');
    await line('/everything:completable-prompt department=Engineering name=Alice');
    app.press('\u0015');
    repl.ollama.script('Promoted.');
    app.send('/everything:completable-prompt');
    await app.waitForScreen(asked('department'));
    app.press('Sa', '\t');
    await app.waitForScreen(asked('department', 'Sales'));
    app.press(KEY.enter);
    await app.waitForScreen(asked('name'));
    app.press('D', '\t');
    await app.waitForScreen(asked('name', 'David'));
    app.press(KEY.enter);
    await app.waitForAnswer('Promoted.');
    expect(lastSent()).toEqual({ role: 'user', content: 'Please promote David to the head of the Sales team.' });
  });

  it('a resource a server adds while the chat runs is offered by Tab once the server announces it', async () => {
    const app = await screen();
    const data = `data:text/plain;base64,${Buffer.from('hello').toString('base64')}`;
    repl.ollama.script(textCall('gzip-file-as-resource', { name: 'hello.txt.gz', data }), 'Compressed.');
    app.send('compress hello for me');
    await app.waitForAnswer('Compressed.');
    // The announcement and the listing it brings run beside the turn: Tab finds the resource once they are done.
    await app.waitUntil(() =>
      expect(repl.session.offers.current.resources.map((resource) => resource.uri)).toContain(
        'demo://resource/session/hello.txt.gz',
      ),
    );
    app.press('@everything:demo://resource/session/hel', '\t');
    await app.waitUntil(() => expect(app.inputLine()).toBe('@everything:demo://resource/session/hello.txt.gz'));
  });

  it('an @mention attaches the resource: the screen says what was attached', async () => {
    const app = await screen();
    repl.ollama.script('It describes the architecture.');
    app.send('What does @everything:demo://resource/static/document/architecture.md say?');
    await app.waitForAnswer('It describes the architecture.');
    expect(app.screen()).toContain('attached @everything:demo://resource/static/document/architecture.md (');
  });

  it('a long call shows its progress on the tool line while it runs', async () => {
    const app = await screen();
    repl.ollama.script(
      textCall('trigger-long-running-operation', { duration: 2, steps: 4 }),
      'The operation finished.',
    );
    app.send('run the long operation');
    await app.waitForScreen(/[█░]{10} [123]\/4/);
    await app.waitForAnswer('The operation finished.');
  });

  it('/watch shows a watched resource changing between turns; /unwatch stops it', async () => {
    const app = await screen();
    const uri = 'demo://resource/static/document/architecture.md';
    app.send(`/watch @everything:${uri}`);
    await app.waitForScreen(`Watching @everything:${uri}: its changes are shown here.`);
    repl.ollama.script(textCall('toggle-subscriber-updates', {}), 'Updates are on.');
    app.send('turn on the resource updates');
    await app.waitForAnswer('Updates are on.');
    await app.waitForScreen(`@everything:${uri} changed.`);
    app.send(`/unwatch @everything:${uri}`);
    await app.waitForScreen(`No longer watching @everything:${uri}.`);
    app.send('/watch architecture.md');
    await app.waitForScreen('name the resource as @server:uri, not "architecture.md"');
  });

  it('/loglevel sets which log messages a server sends; a level that does not exist lists those that do', async () => {
    const app = await screen();
    app.send('/loglevel everything error');
    await app.waitForScreen('everything now sends its log messages from error up');
    app.send('/loglevel everything loud');
    await app.waitForScreen('log levels: debug, info, notice, warning, error, critical, alert, emergency');
  });

  it('Tab completes a prompt after / and a resource after @', async () => {
    const app = await screen();
    app.press('/everything:simple', '\t');
    await app.waitUntil(() => expect(app.inputLine()).toBe('/everything:simple-prompt'));
    app.press('\u0015', 'Sum up @everything:demo://resource/static/document/archi', '\t');
    await app.waitUntil(() =>
      expect(app.inputLine()).toBe('Sum up @everything:demo://resource/static/document/architecture.md'),
    );
  });
});
