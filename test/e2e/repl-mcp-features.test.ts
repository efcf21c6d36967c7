/**
 * What servers offer besides tools, as a person sees it in the REPL (tmux, the built binary,
 * the fake Ollama, server-everything): `help` lists the prompts, `/server:prompt` runs one (asking
 * for what it needs), an @mention attaches a resource, Tab completes what the server suggests,
 * and a long call shows its progress while it runs.
 */
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { useReplSession } from '../helpers/repl-session.js';
import { TmuxPane } from '../helpers/tmux.js';

const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const textCall = (tool: string, args: Record<string, unknown>): string =>
  JSON.stringify({ action: 'use_tool', server: 'everything', tool, arguments: args });

describe.skipIf(!TmuxPane.available())('MCP features in the REPL', () => {
  const repl = useReplSession({
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

  it('help lists the prompts of the running servers, with how to run them', async () => {
    await repl.shows('ready');
    repl.pane.type('help', 'Enter');
    await repl.shows("Servers' prompts (their messages start a turn):");
    await repl.shows('/everything:args-prompt city=<city> [state=…]');
  });

  it('/everything:simple-prompt runs the prompt: its messages go to the model, the screen says so', async () => {
    repl.ollama.script('Here is my reply to the prompt.');
    repl.pane.type('/everything:simple-prompt', 'Enter');
    await repl.shows('prompt everything:simple-prompt: 1 message');
    await repl.shows('Here is my reply to the prompt.');
    const sent = repl.ollama.chatRequests.filter((request) => request.messages.length > 0).at(-1);
    expect(sent?.messages.at(-1)).toEqual({ role: 'user', content: 'This is a simple prompt without arguments.' });
  });

  /** The last user message the model was sent. */
  const lastSent = () =>
    repl.ollama.chatRequests
      .filter((request) => request.messages.length > 0)
      .at(-1)
      ?.messages.at(-1);

  it('a prompt without its required argument asks for it, then runs with the answer', async () => {
    repl.ollama.script('Sunny in Lisbon.');
    repl.pane.type('/everything:args-prompt', 'Enter');
    await repl.shows('everything:args-prompt needs city (Name of the city): type each and press Enter');
    await repl.shows('city ›');
    repl.pane.type('Lisbon', 'Enter');
    await repl.shows('Sunny in Lisbon.');
    expect(lastSent()).toEqual({ role: 'user', content: "What's weather in Lisbon?" });
  });

  it('Esc leaves the question and nothing reaches the model', async () => {
    const requests = repl.ollama.chatRequests.length;
    repl.pane.type('/everything:args-prompt', 'Enter');
    await repl.shows('city ›');
    repl.pane.type('', 'Escape');
    await repl.shows('Cancelled /everything:args-prompt.');
    expect(repl.pane.screen()).not.toContain('city ›');
    expect(repl.ollama.chatRequests.length).toBe(requests);
  });

  it('Tab completes a prompt argument from the server, narrowed by the one before it, on the line and when asked', async () => {
    repl.pane.type('/everything:completable-prompt department=Eng', 'Tab');
    await repl.shows('› /everything:completable-prompt department=Engineering');
    repl.pane.type('name=A', 'Tab');
    await repl.shows('› /everything:completable-prompt department=Engineering name=Alice');
    repl.pane.type('', 'C-u');
    repl.ollama.script('Promoted.');
    repl.pane.type('/everything:completable-prompt', 'Enter');
    await repl.shows('department ›');
    repl.pane.type('Sa', 'Tab');
    await repl.shows('department › Sales');
    repl.pane.type('', 'Enter');
    await repl.shows('name ›');
    repl.pane.type('D', 'Tab');
    await repl.shows('name › David');
    repl.pane.type('', 'Enter');
    await repl.shows('Promoted.');
    expect(lastSent()).toEqual({ role: 'user', content: 'Please promote David to the head of the Sales team.' });
  });

  it('a resource a server adds while the chat runs is offered by Tab once the server announces it', async () => {
    const data = `data:text/plain;base64,${Buffer.from('hello').toString('base64')}`;
    repl.ollama.script(textCall('gzip-file-as-resource', { name: 'hello.txt.gz', data }), 'Compressed.');
    repl.pane.type('compress hello for me', 'Enter');
    await repl.shows('Compressed.');
    // The announcement and the listing it brings run beside the turn: Tab finds the resource once they are done.
    await vi.waitFor(
      () => {
        repl.pane.type('', 'C-u');
        repl.pane.type('@everything:demo://resource/session/hel', 'Tab');
        expect(repl.pane.screen()).toContain('› @everything:demo://resource/session/hello.txt.gz');
      },
      { timeout: 10_000, interval: 300 },
    );
    repl.pane.type('', 'C-u');
  });

  it('an @mention attaches the resource: the screen says what was attached', async () => {
    repl.ollama.script('It describes the architecture.');
    repl.pane.type('What does @everything:demo://resource/static/document/architecture.md say?', 'Enter');
    await repl.shows('attached @everything:demo://resource/static/document/architecture.md (');
    await repl.shows('It describes the architecture.');
  });

  it('a long call shows its progress on the tool line while it runs', async () => {
    repl.ollama.script(
      textCall('trigger-long-running-operation', { duration: 4, steps: 4 }),
      'The operation finished.',
    );
    repl.pane.type('run the long operation', 'Enter');
    await repl.shows('/4');
    expect(repl.pane.screen()).toMatch(/[█░]{10} [123]\/4/);
    await repl.shows('The operation finished.');
  });

  it('/watch shows a watched resource changing between turns; /unwatch stops it', async () => {
    const uri = 'demo://resource/static/document/architecture.md';
    await repl.shows('ready');
    repl.pane.type(`/watch @everything:${uri}`, 'Enter');

    await repl.shows(`Watching @everything:${uri}: its changes are shown here.`);
    repl.ollama.script(textCall('toggle-subscriber-updates', {}), 'Updates are on.');
    repl.pane.type('turn on the resource updates', 'Enter');
    await repl.shows(`@everything:${uri} changed.`);
    await repl.shows('Updates are on.');
    repl.pane.type(`/unwatch @everything:${uri}`, 'Enter');
    await repl.shows(`No longer watching @everything:${uri}.`);
    repl.pane.type('/watch architecture.md', 'Enter');
    await repl.shows('name the resource as @server:uri, not "architecture.md"');
  });

  it('/loglevel sets which log messages a server sends; a level that does not exist lists those that do', async () => {
    repl.pane.type('/loglevel everything error', 'Enter');
    await repl.shows('everything now sends its log messages from error up');
    repl.pane.type('/loglevel everything loud', 'Enter');
    await repl.shows('log levels: debug, info, notice, warning, error, critical, alert, emergency');
  });

  it('Tab completes a prompt after / and a resource after @', async () => {
    await repl.shows('ready');
    repl.pane.type('/everything:simple', 'Tab');
    // The terminal keeps no trailing space on screen: the completed word is what shows.
    await repl.shows('› /everything:simple-prompt');
    repl.pane.type('', 'C-u');
    repl.pane.type('Sum up @everything:demo://resource/static/document/archi', 'Tab');
    await repl.shows('› Sum up @everything:demo://resource/static/document/architecture.md');
    repl.pane.type('', 'C-u');
  });
});
