/**
 * Sessions and input history across runs of the REPL (the chat wired as the program wires it, with
 * its session store and input history, the calculator, the fake Ollama): a chat is saved as it
 * goes; after quitting, a chat opened with `--resume latest` shows the earlier conversation and the
 * next request carries it; ↑ recalls a line typed in the run before, Ctrl+R finds one, and a
 * secret typed then is not kept. The tests follow one user through two runs, in order.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { useLiveRepl } from './live-repl.js';
import { KEY, type RenderedApp } from './render-app.js';

const CALCULATOR = path.join(REPO_ROOT, 'dist/servers/calculator/main.js');
const SECRET = 'ghp_0123456789abcdefABCDEF0123456789abcd';
const textCall = (expression: string): string =>
  JSON.stringify({ action: 'use_tool', server: 'calculator', tool: 'evaluate', arguments: { expression } });

afterEach(() => cleanup());

describe('sessions and input history in the REPL', () => {
  const repl = useLiveRepl({
    config: { mcpServers: { calculator: { command: 'node', args: [CALCULATOR], alwaysAllow: ['evaluate'] } } },
  });
  const sessionsDir = () => path.join(repl.stateHome, 'mcp-chat', 'sessions');
  /** The saved sessions' turns, by file. */
  const savedTurns = (): number[] =>
    fs
      .readdirSync(sessionsDir())
      .map((file) => (JSON.parse(fs.readFileSync(path.join(sessionsDir(), file), 'utf8')) as { turns: number }).turns);
  /** The messages of the last request that reached the model. */
  const lastSent = () => repl.ollama.chatRequests.filter((request) => request.messages.length > 0).at(-1)?.messages;
  const ready = async (app: RenderedApp): Promise<RenderedApp> => {
    await app.waitForScreen(/calculator ✓ 1 {2}ready/);
    return app;
  };
  const say = async (app: RenderedApp, text: string, answer: string): Promise<void> => {
    app.send(text);
    await app.waitForAnswer(answer);
  };

  it('the first run: a conversation with a tool call is saved after each turn', async () => {
    const app = await ready(await repl.open());
    repl.ollama.script(textCall('6*7'), 'It is 42.', 'Noted: pineapple.', 'Please do not paste tokens here.');
    await say(app, 'What is 6*7?', 'It is 42.');
    await say(app, 'remember the word pineapple', 'Noted: pineapple.');
    await say(app, `my token is ${SECRET}`, 'Please do not paste tokens here.');
    await app.waitUntil(() => expect(savedTurns()).toEqual([3]));
    await repl.quit(app);
  });

  it('--resume latest shows the earlier conversation, tool line included', async () => {
    const app = await ready(await repl.open({ resume: 'latest' }));
    const screen = app.screen();
    expect(screen).toContain('Resumed session ');
    expect(screen).toContain('› What is 6*7?');
    expect(screen).toMatch(/✓ calculator\.evaluate\(expression="6\*7"\).*→ 42/);
    expect(screen).toContain('It is 42.');
    expect(screen).toContain('Noted: pineapple.');
  });

  it('↑ recalls the last line typed in the run before (not the secret, which was never kept)', async () => {
    const app = await ready(await repl.newScreen());
    app.press(KEY.up);
    await app.waitUntil(() => expect(app.inputLine()).toBe('remember the word pineapple'));
    const history = fs.readFileSync(path.join(repl.stateHome, 'mcp-chat', 'input-history'), 'utf8');
    expect(history).toContain('remember the word pineapple');
    expect(history).not.toContain(SECRET);
  });

  it('Ctrl+R finds an earlier line; Enter takes it onto the line; a secret is not found', async () => {
    const app = await ready(await repl.newScreen());
    app.press('\u0012');
    await app.waitForScreen(/^search "" ›/m);
    app.press('6*7');
    await app.waitForScreen(/^search "6\*7" › What is 6\*7\?/m);
    app.press(KEY.enter);
    await app.waitUntil(() => expect(app.inputLine()).toBe('What is 6*7?'));
    // Ctrl+U and Ctrl+R in one go, as a fast typist sends them: the line is cleared, then searched.
    app.press('\u0015\u0012');
    await app.waitForScreen(/^search "" ›\s*$/m);
    app.press('ghp_');
    await app.waitForScreen('no earlier input has "ghp_"');
    app.press(KEY.esc);
    await app.waitUntil(() => expect(app.screen()).not.toContain('search "ghp_"'));
    expect(app.inputLine()).toBe('');
  });

  it('the next request carries the resumed conversation, and the session goes on being saved', async () => {
    const app = await ready(await repl.newScreen());
    repl.ollama.script('You asked what 6*7 is.');
    await say(app, 'What did I ask first?', 'You asked what 6*7 is.');
    const contents = (lastSent() ?? []).map((message) => message.content);
    expect(contents).toContain('What is 6*7?');
    expect(contents).toContain('It is 42.');
    expect(contents).toContain('remember the word pineapple');
    expect(contents.at(-1)).toBe('What did I ask first?');
    await app.waitUntil(() => expect(savedTurns()).toEqual([4]));
  });

  it('/sessions lists it, /save names it, /export writes it as markdown', async () => {
    const app = await ready(await repl.newScreen());
    app.send('/save pineapple-chat');
    await app.waitForScreen('Saved as pineapple-chat (4 turns)');
    app.send('/sessions');
    await app.waitForScreen(/\* pineapple-chat .* llama3\.2 +4 turns +What is 6\*7\?/);
    const exported = path.join(repl.workDir, 'chat.md');
    app.send(`/export ${exported}`);
    await app.waitForScreen(`Exported session pineapple-chat to ${exported}`);
    const markdown = fs.readFileSync(exported, 'utf8');
    expect(markdown).toContain('## You\n\nWhat is 6*7?');
    expect(markdown).toContain('## Assistant\n\nYou asked what 6*7 is.');
  });

  it('/resume of a damaged session is a clear line, and the chat goes on', async () => {
    const app = await ready(await repl.newScreen());
    const broken = path.join(sessionsDir(), 'broken.json');
    fs.writeFileSync(broken, '{"format":1,"name":');
    app.send('/resume broken');
    await app.waitForScreen(`session file ${broken} is damaged`);
    repl.ollama.script('Still here.');
    await say(app, 'Are you there?', 'Still here.');
  });
});

describe('a cancelled turn across runs', () => {
  const repl = useLiveRepl({ config: { mcpServers: {} } });
  const lastSent = () => repl.ollama.chatRequests.filter((request) => request.messages.length > 0).at(-1)?.messages;
  const savedFiles = (): string[] => {
    const dir = path.join(repl.stateHome, 'mcp-chat', 'sessions');
    return fs.existsSync(dir) ? fs.readdirSync(dir).map((file) => fs.readFileSync(path.join(dir, file), 'utf8')) : [];
  };

  it('is saved with the reply shown so far, and a resumed chat sends it on', async () => {
    const app = await repl.open();
    await app.waitForScreen('ollama ✓');
    repl.ollama.script({ text: 'The first step is to preheat', hang: true });
    app.send('How do I bake bread?');
    await app.waitForScreen(/The first step is to preheat/);
    app.press(KEY.esc);
    await app.waitForScreen(/Cancelled\./);
    await app.waitUntil(() => expect(savedFiles().join('')).toContain('[interrupted by the user]'));
    await repl.quit(app);
    const resumed = await repl.open({ resume: 'latest' });
    await resumed.waitForScreen('ollama ✓');
    expect(resumed.screen()).toContain('The first step is to preheat');
    repl.ollama.script('Preheat the oven to 230 °C.');
    resumed.send('Go on.');
    await resumed.waitForAnswer('Preheat the oven to 230 °C.');
    expect(lastSent()?.map((message) => message.content)).toEqual(
      expect.arrayContaining([
        'How do I bake bread?',
        'The first step is to preheat\n\n[interrupted by the user]',
        'Go on.',
      ]),
    );
  });
});
