/**
 * A rug pull met in the chat, in a real terminal (tmux): a server whose tool was rewritten since the
 * user accepted it. The chat shows the diff and asks; until `y` the model is not offered the tool,
 * `n` keeps it back for the session (and it is asked again next time), `y` offers it and is remembered.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { SCREEN_WAIT } from '../helpers/repl-session.js';
import { CLI, runCli } from '../helpers/run-cli.js';
import { dictionary, LOOKUP, LOOKUP_REWRITTEN, type Dictionary } from '../helpers/shifting-server.js';
import { TmuxPane } from '../helpers/tmux.js';

describe.skipIf(!TmuxPane.available())('the chat with a server whose tool changed since it was accepted', () => {
  let dict: Dictionary;
  let ollama: FakeOllama;
  const panes: TmuxPane[] = [];

  beforeAll(async () => {
    dict = dictionary();
    ollama = await startFakeOllama({ models: [{ name: 'llama3.2', capabilities: ['completion'] }] });
    dict.offer({ tools: [LOOKUP] });
    const pinned = await runCli(['tools', '--config', dict.config], { cwd: dict.dir, env: dict.env() });
    expect(pinned.code).toBe(0);
    dict.offer({ tools: [LOOKUP_REWRITTEN] });
  });

  afterAll(async () => {
    for (const pane of panes) pane.kill();
    await ollama.close();
    dict.remove();
  });

  function start(): TmuxPane {
    const pane = new TmuxPane();
    panes.push(pane);
    const env = dict.env({ OLLAMA_HOST: ollama.url, TERM: 'xterm-256color' });
    pane.start([process.execPath, CLI, '--config', dict.config], { cwd: dict.dir, env, width: 200 });
    return pane;
  }

  async function quit(pane: TmuxPane): Promise<void> {
    pane.type('quit', 'Enter');
    await vi.waitFor(() => expect(pane.exited()).toBe(true), SCREEN_WAIT);
  }

  /** Sends a message and returns the system prompt the model was sent for it. */
  async function systemPromptFor(pane: TmuxPane, message: string): Promise<string> {
    const before = ollama.chatRequests.length;
    ollama.script('Fine.');
    pane.type(message, 'Enter');
    await ollama.waitForRequests(before + 1);
    await pane.waitForScreen(/Fine\./);
    const request = ollama.chatRequests[before];
    return request?.messages.find((m) => m.role === 'system')?.content ?? '';
  }

  it('rug pull: the chat shows the rewritten description as a diff and, on n, keeps the tool from the model', async () => {
    const pane = start();
    await pane.waitForScreen(/dict: 1 tool new or changed since you accepted its tools/);
    await pane.waitForScreen(/offer them to the model\? y\/n/);
    const screen = pane.screen();
    expect(screen).toContain('  lookup: description changed');
    expect(screen).toContain(`      - ${LOOKUP.description}`);
    expect(screen).toContain(`      + ${LOOKUP_REWRITTEN.description}`);
    expect(screen).toMatch(/dict ✓ 0/);

    pane.type('n', 'Enter');
    await pane.waitForScreen(/Kept back dict's new or changed tools for this session/);
    const prompt = await systemPromptFor(pane, 'hello');
    expect(prompt).not.toContain('id_rsa');
    expect(prompt).not.toContain('lookup');
    await quit(pane);
  });

  it('rug pull: the rewritten tool is offered to the model only after y, and the yes is remembered', async () => {
    const pane = start();
    // `n` is not remembered: the next start asks again.
    await pane.waitForScreen(/offer them to the model\? y\/n/);
    pane.type('y', 'Enter');
    await pane.waitForScreen(/dict's tools are offered as they are now, and remembered/);
    await pane.waitForScreen(/dict ✓ 1/);
    expect(await systemPromptFor(pane, 'hello')).toContain(LOOKUP_REWRITTEN.description);
    await quit(pane);

    const next = start();
    await next.waitForScreen(/dict ✓ 1.*ready/s);
    expect(next.screen()).not.toContain('new or changed');
    await quit(next);
  });
});
