/**
 * Every built-in command typed into the real App, bare or with a slash, in any case;
 * `model` runs against the fake Ollama so the existence check is Ollama's own answer.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { silentLogger } from '../../src/shared/log.js';
import { createOllamaClient } from '../../src/ollama/client.js';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { type RenderedApp, startApp, TestLlm, testRuntime, TestToolHost, useTool } from './render-app.js';

afterEach(() => cleanup());

describe('help', () => {
  it.each(['help', '/help', 'HELP', '/Help', '?'])('%s lists every command and the keys', async (typed) => {
    const app = await startApp();
    app.send(typed);
    await app.waitForScreen(/Commands \(bare or with a slash\):/);
    const screen = app.screen();
    expect(screen).toContain(`› ${typed}`);
    for (const name of ['help', 'tools', 'servers', 'debug', 'clear', 'model', 'quit'])
      expect(screen).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'));
    expect(screen).toMatch(/Esc or Ctrl\+C cancels a reply/);
  });
});

describe('tools and servers', () => {
  it('tools lists the tools by server, with their parameters and descriptions, aligned', async () => {
    const app = await startApp();
    app.send('/TOOLS');
    await app.waitForScreen(/write_file/);
    expect(app.screen()).toMatch(/^calculator\n {2}evaluate\(expression\) {2}Evaluate an arithmetic expression$/m);
    expect(app.screen()).toMatch(
      /^file\n {2}read_file\(path\) {12}Read a file\n {2}write_file\(path, content\) {2}Write a file$/m,
    );
  });

  it('servers shows state, tool count, start time and last error, with no control sequence from the server', async () => {
    const broken = {
      name: 'broken',
      kind: 'stdio' as const,
      state: 'failed' as const,
      toolCount: 0,
      lastError: 'failed to start (node broken.js): \u001b[31mcannot open database\u001b[0m\u0007\nsecond line',
    };
    const app = await startApp({ host: new TestToolHost([broken]) });
    app.send('Servers');
    await app.waitForScreen(/Servers:/);
    const screen = app.screen();
    expect(screen).toMatch(/^ {2}calculator +ready, 1 tool, started in 12 ms$/m);
    expect(screen).toMatch(
      /^ {2}broken +failed, 0 tools\n {6}last error: failed to start \(node broken\.js\): cannot open database\n {6}second line$/m,
    );
    expect(screen).toMatch(/^ {2}github +disabled: missing environment variable GITHUB_TOKEN$/m);
    expect(app.ui.lastFrame()).not.toContain('\u001b[31mcannot');
    expect(app.ui.lastFrame()).not.toContain('\u0007');
  });
});

describe('debug', () => {
  it('toggles raw model output, parsed calls, timings and the log level', async () => {
    const llm = new TestLlm([useTool('calculator', 'evaluate', { expression: '2+3' }), 'Five.', 'Plain answer.']);
    const runtime = testRuntime();
    const app = await startApp({ llm, runtime });
    app.send('debug');
    await app.waitForScreen(/Debug on/);
    expect(app.screen()).toMatch(/log level debug/);
    expect(runtime.log.level).toBe('debug');
    app.send('What is 2+3?');
    await app.waitForScreen(/Five\./);
    const screen = app.screen();
    expect(screen).toMatch(
      /\[debug\] step 1, \d+ ms, raw reply:\n\{"action":"use_tool","server":"calculator","tool":"evaluate","arguments":\{"expression":"2\+3"\}\}/,
    );
    expect(screen).toContain('[debug] parsed call: calculator.evaluate {"expression":"2+3"}');
    expect(screen).toMatch(/✓ calculator\.evaluate\(expression="2\+3"\) 1 ms → 5/);

    app.send('/DEBUG');
    await app.waitForScreen(/Debug off/);
    expect(runtime.log.level).toBe('info');
    app.send('Anything else?');
    await app.waitForScreen(/Plain answer\./);
    expect(app.screen()).not.toMatch(/raw reply:\nPlain answer/);
  });
});

describe('clear', () => {
  it.each(['clear', '/Clear'])('%s forgets the conversation and clears the screen', async (typed) => {
    const llm = new TestLlm(['First answer.', 'Second answer.']);
    const app = await startApp({ llm });
    app.send('Remember the word banana');
    await app.waitForScreen(/First answer\./);
    app.send(typed);
    await app.waitUntil(() => expect(app.ui.frames.some((frame) => frame.startsWith('\u001b[2J'))).toBe(true));
    app.send('What was the word?');
    await app.waitForScreen(/Second answer\./);
    expect(llm.scripted.sentContents(1)).not.toContain('banana');
  });
});

describe('quit and exit', () => {
  it.each(['quit', 'exit', '/QUIT', '/Exit'])('%s exits', async (typed) => {
    const app = await startApp();
    app.send(typed);
    await app.waitUntil(() => expect(app.exited()).toBe(true));
  });
});

describe('unknown commands', () => {
  it.each([
    ['/hlep', '/help'],
    ['/toolz', '/tools'],
    ['/Servres', '/servers'],
  ])('%s suggests %s', async (typed, suggestion) => {
    const llm = new TestLlm([]);
    const app = await startApp({ llm });
    app.send(typed);
    await app.waitForScreen(`✗ Unknown command ${typed}. Did you mean ${suggestion}?`);
    expect(app.screen()).toContain('Type help for the list of commands.');
    expect(llm.scripted.requests).toHaveLength(0);
  });

  it('says so without a suggestion when nothing is close', async () => {
    const app = await startApp();
    app.send('/xyzzy');
    await app.waitForScreen(/✗ Unknown command \/xyzzy\.\n/);
    expect(app.screen()).not.toContain('Did you mean');
  });

  it('a sentence that starts with a command word is a message for the model', async () => {
    const llm = new TestLlm(['Glad you like them.']);
    const app = await startApp({ llm });
    app.send('tools are great');
    await app.waitForScreen(/Glad you like them\./);
    expect(llm.scripted.sentContents(0)).toContain('tools are great');
  });
});

describe('model', () => {
  let ollama: FakeOllama;

  beforeAll(async () => {
    ollama = await startFakeOllama({ models: [{ name: 'llama3.2' }, { name: 'qwen2.5' }] });
  });

  afterAll(async () => {
    await ollama.close();
  });

  function startWithOllama(): Promise<RenderedApp> {
    const runtime = testRuntime({ baseUrl: ollama.url, model: 'llama3.2' });
    return startApp({ runtime, llm: createOllamaClient(runtime.config.ollama, silentLogger) });
  }

  it('shows the model, switches to one Ollama has, and uses it for the next message', async () => {
    const app = await startWithOllama();
    app.send('model');
    await app.waitForScreen(/Model: llama3\.2/);
    app.send('/MODEL qwen2.5');
    await app.waitForScreen(/Model switched to qwen2\.5\./);
    await app.waitForScreen(/^qwen2\.5 {2}ollama ✓/m);
    ollama.script('Hello from qwen.');
    app.send('hi');
    await app.waitForScreen(/Hello from qwen\./);
    expect(ollama.chatRequests.at(-1)?.model).toBe('qwen2.5');
  });

  it('refuses a model Ollama does not have, says how to get it, and keeps the current one', async () => {
    const app = await startWithOllama();
    app.send('model no-such-model');
    await app.waitForScreen(/✗ model no-such-model is not available on http:\/\/127\.0\.0\.1:\d+/);
    expect(app.screen()).toContain('Pull it with `ollama pull no-such-model`');
    // The offer to pull it takes an answer once it has been read; a line sent before would be kept aside.
    await app.waitForScreen('pull? y/n ›');
    app.send('n');
    await app.waitForScreen('no-such-model not pulled. The model is still llama3.2.');
    // The check at start ran beside the switch's: it saw llama3.2, which this Ollama has, and offers nothing.
    expect(app.screen()).not.toContain('llama3.2 is not pulled');
    expect(app.screen()).not.toMatch(/ollama ✗/);
    app.send('model');
    await app.waitForScreen(/Model: llama3\.2/);
  });
});
