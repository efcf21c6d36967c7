/**
 * The markdown renderer (marked-terminal, and highlight.js behind it) loads after the chat's first
 * frame. Nothing is drawn before it is there: a reply that comes first waits for it, a session
 * resumed with `/resume` is drawn once it has loaded, and text drawn without it all the same is
 * made inert. This file must load the renderer only through what it tests: each test file has
 * modules of its own, so none is loaded when it starts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanup } from 'ink-testing-library';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Styles on, as in a terminal: a reply drawn without the renderer would show its markup.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

/** The chat's modules, loaded anew: the renderer a test before loaded is not in them. */
async function freshChat() {
  vi.resetModules();
  const [markdown, renderApp, { ChatSession }, { SessionKeeper }, { SessionStore }] = await Promise.all([
    import('../../src/ui/markdown.js'),
    import('./render-app.js'),
    import('../../src/session/chat-session.js'),
    import('../../src/state/session-keeper.js'),
    import('../../src/state/session-store.js'),
  ]);
  return { ...markdown, ...renderApp, ChatSession, SessionKeeper, SessionStore };
}

const REPLY = 'Use **bold** here, and `code`:\n\n- first item\n- second item';
/** Markup that marked turns into styles and bullets: none of it is on a screen drawn by the renderer. */
const SOURCE_MARKUP = /\*\*bold\*\*|`code`|^- first item/m;

const stateHome = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-markdown-load-')));
let chat: Awaited<ReturnType<typeof freshChat>>;
beforeEach(async () => {
  chat = await freshChat();
  // Nothing has loaded it yet: text other than plain prose is drawn as it came.
  expect(chat.renderMarkdown(REPLY, 80)).toMatch(SOURCE_MARKUP);
});
afterEach(() => cleanup());
afterAll(() => fs.rmSync(stateHome, { recursive: true, force: true }));

describe('the markdown renderer, loaded after the first frame', () => {
  it('a reply streamed before the renderer has loaded waits for it, and is drawn as markdown', async () => {
    const app = await chat.startApp({ llm: new chat.TestLlm([REPLY]) });
    app.send('Show me some markdown');
    await app.waitForScreen(/second item/);
    await app.waitUntil(() => expect(app.session.conversationMessages().at(-1)?.content).toBe(REPLY));
    const screen = app.screen();
    expect(screen).toContain('Use bold here, and code:');
    expect(screen).not.toMatch(SOURCE_MARKUP);
  });

  it('/resume draws the saved replies once the renderer is there', async () => {
    const store = chat.SessionStore.open({ XDG_STATE_HOME: stateHome });
    await new chat.SessionKeeper(store, 'styled').save({
      model: 'scripted-model',
      messages: [
        { role: 'user', content: 'Show me some markdown' },
        { role: 'assistant', content: REPLY },
      ],
      shown: [
        { type: 'user', text: 'Show me some markdown' },
        { type: 'assistant', text: REPLY },
      ],
      answered: true,
    });
    const keeper = new chat.SessionKeeper(store);
    const session = new chat.ChatSession(chat.testRuntime(), new chat.TestToolHost(), new chat.TestLlm([]), { keeper });
    const app = await chat.startApp({ session });
    app.send('/resume styled');
    await app.waitForScreen(/It goes on here\./);
    const screen = app.screen();
    expect(screen).toContain('second item');
    expect(screen).not.toMatch(SOURCE_MARKUP);
  });

  it('a reply drawn without the renderer cannot set the terminal title or clear the screen: escapes made inert', () => {
    const drawn = chat.renderMarkdown('Done.\u001b]0;owned\u0007\n\n\u001b[2J- item', 80);
    expect(drawn).not.toContain('\u001b');
    expect(drawn).not.toContain('\u0007');
    expect(drawn).toContain('- item');
  });
});
