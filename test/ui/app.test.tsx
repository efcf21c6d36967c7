/**
 * The REPL screen as a user drives it, in ink-testing-library's terminal: committed
 * history, streaming with its spinner, the input line, cancelling a turn and quitting.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { KEY, renderApp, startApp, TestLlm, TestToolHost, useTool } from './render-app.js';

/** Any frame of ink-spinner's `dots`. */
const SPINNER = '[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]';

afterEach(() => cleanup());

describe('history', () => {
  it('commits the user message, the tool line and the markdown answer, above the status bar and the input line', async () => {
    const llm = new TestLlm([
      useTool('calculator', 'evaluate', { expression: '6*7' }),
      'It is **42**.\n\n- first point\n- second point\n\n```js\nconst answer = 42;\n```',
    ]);
    const app = await startApp({ llm });
    app.send('What is 6*7?');
    // The reply is drawn as it streams, then committed: wait for the whole of it, code block included.
    await app.waitForScreen(/const answer = 42;[\s\S]*ready/);
    const screen = app.screen();
    const order = [
      '› What is 6*7?',
      '✓ calculator.evaluate(expression="6*7") 1 ms → 42',
      'It is 42.',
      '* first point',
      'const answer = 42;',
      'ready',
    ];
    const positions = order.map((text) => screen.indexOf(text));
    expect(positions.every((at) => at >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    // Markdown is rendered, not shown as source; the model's JSON never appears.
    expect(screen).not.toContain('**42**');
    expect(screen).not.toContain('```');
    expect(screen).not.toContain('"action"');
    expect(app.inputLine()).toBe('');
  });

  it('shows the model, Ollama and every server in the status bar', async () => {
    const app = renderApp();
    await app.waitForScreen(/scripted-model {2}ollama ✓ {2}calculator ✓ 1 {2}file ✓ 3 {2}slow ✓ 1 {2}ready/);
  });
});

describe('streaming', () => {
  it('shows a spinner until the first token, then the answer as it streams', async () => {
    const llm = new TestLlm([
      { content: '', hang: true },
      { content: 'The first half of the answer', hang: true },
    ]);
    const app = await startApp({ llm });
    app.send('Hello?');
    await app.waitForScreen(new RegExp(`${SPINNER} thinking… \\(Esc to cancel\\)`));
    app.press(KEY.ctrlC);
    await app.waitForScreen(/Cancelled\./);
    app.send('Again?');
    await app.waitForScreen(/The first half of the answer/);
    expect(app.screen()).not.toMatch(/thinking…/);
  });

  it('re-renders a fast stream in batches, not once per token', async () => {
    const words = Array.from({ length: 600 }, (_, i) => `w${i}`).join(' ');
    const llm = new TestLlm([words]);
    const app = await startApp({ llm });
    const before = app.ui.frames.length;
    app.send('Stream a lot');
    await app.waitForScreen(/w599/);
    const deltas = Math.ceil(words.length / 4);
    // A frame per delta would be hundreds of redraws of the whole reply.
    expect(app.ui.frames.length - before).toBeLessThan(deltas / 10);
  });

  it('shows only the last rows of a long reply while it streams, and says how many are above', async () => {
    const items = Array.from({ length: 40 }, (_, i) => `- item ${i + 1}`).join('\n');
    const llm = new TestLlm([{ content: items, hang: true }]);
    const app = await startApp({ llm });
    app.send('A long list');
    await app.waitForScreen(/item 40/);
    const shown = app.screen().match(/item \d+/g) ?? [];
    // Each row of the live area is redrawn at every frame: a dozen are enough to read along.
    expect(shown).toHaveLength(12);
    expect(shown.at(-1)).toBe('item 40');
    expect(app.screen()).toMatch(/… 28 more lines above/);
    app.press(KEY.ctrlC);
    await app.waitForScreen(/Cancelled\./);
  });

  it('shows a spinner with the call while a tool runs', async () => {
    const llm = new TestLlm([useTool('slow', 'wait', {})]);
    const app = await startApp({ llm });
    app.send('Wait for me');
    await app.waitForScreen(new RegExp(`${SPINNER} slow\\.wait\\(\\)`));
    app.press(KEY.ctrlC);
    await app.waitForScreen(/Cancelled\./);
  });
});

describe('cancel', () => {
  const CANCEL_KEYS = [
    ['Ctrl+C', KEY.ctrlC],
    ['Esc', KEY.esc],
  ] as const;

  it.each(CANCEL_KEYS)(
    '%s during a streaming reply cancels the turn, keeps what was shown and keeps the session',
    async (_name, key) => {
      const llm = new TestLlm([{ content: 'Once upon a time', hang: true }, 'Still here.']);
      const app = await startApp({ llm });
      app.send('Tell me a long story');
      await app.waitForScreen(/Once upon a time/);
      app.press(key);
      await app.waitForScreen(/Once upon a time\n+Cancelled\./);
      app.send('Are you there?');
      await app.waitForScreen(/Still here\./);
      expect(app.exited()).toBe(false);
      // The cancelled exchange stays in the conversation the model sees, marked as interrupted.
      expect(llm.scripted.sentContents(1)).toContain('Tell me a long story');
      expect(llm.scripted.sentContents(1)).toContain('Once upon a time\n\n[interrupted by the user]');
    },
  );

  it.each(CANCEL_KEYS)('%s during a tool call aborts the call and keeps the session', async (_name, key) => {
    const llm = new TestLlm([useTool('slow', 'wait', {}), 'Next answer.']);
    const host = new TestToolHost();
    const app = await startApp({ llm, host });
    app.send('Run the slow tool');
    await app.waitForScreen(/slow\.wait\(\)/);
    app.press(key);
    await app.waitForScreen(/Cancelled\./);
    expect(host.cancelled).toBe(1);
    // The call's line stays, marked as cancelled.
    expect(app.screen()).toMatch(/⊘ slow\.wait\(\) \d+ ms → slow\.wait was cancelled by the user while it ran/);
    app.send('And now?');
    await app.waitForScreen(/Next answer\./);
    expect(app.exited()).toBe(false);
  });

  it('Ctrl+D during a reply does not quit', async () => {
    const llm = new TestLlm([{ content: 'Working on it', hang: true }]);
    const app = await startApp({ llm });
    app.send('Go');
    await app.waitForScreen(/Working on it/);
    app.press(KEY.ctrlD, KEY.esc);
    await app.waitForScreen(/Cancelled\./);
    expect(app.exited()).toBe(false);
  });
});

describe('a line sent while a turn runs', () => {
  /** A promise and what resolves it: the reply is held open until the test lets it end. */
  function gate(): { held: Promise<void>; release: () => void } {
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    return { held, release };
  }

  it('is not lost when Enter comes as the answer shows: it waits below the reply and is sent once the turn ends', async () => {
    const { held, release } = gate();
    const llm = new TestLlm([{ content: 'First answer.', holdUntil: held }, 'Second answer.']);
    const app = await startApp({ llm });
    app.send('first');
    // The answer is on screen and the turn has not ended yet: the moment a person types the next line.
    await app.waitForScreen(/First answer\./);
    app.send('second');
    await app.waitForScreen(/^queued: second$/m);
    expect(app.inputLine()).toBe('');
    expect(llm.scripted.requests).toHaveLength(1);
    release();
    await app.waitForAnswer('Second answer.');
    expect(llm.scripted.requests.at(-1)?.messages.at(-1)).toMatchObject({ role: 'user', content: 'second' });
    const screen = app.screen();
    const order = ['› first', 'First answer.', '› second', 'Second answer.'].map((text) => screen.indexOf(text));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(screen).not.toContain('queued:');
  });

  it('lines sent during a reply that is then cancelled are sent after it, one turn each, in order', async () => {
    const llm = new TestLlm([{ content: 'Once upon a time', hang: true }, 'Answer two.', 'Answer three.']);
    const app = await startApp({ llm });
    app.send('Tell me a long story');
    await app.waitForScreen(/Once upon a time/);
    app.send('two');
    app.send('three');
    await app.waitForScreen(/^queued: two\nqueued: three$/m);
    app.press(KEY.esc);
    await app.waitForAnswer('Answer three.');
    expect(llm.scripted.requests.map((request) => request.messages.at(-1)?.content)).toEqual([
      'Tell me a long story',
      'two',
      'three',
    ]);
    expect(app.screen()).toMatch(/Cancelled\.[\s\S]*› two[\s\S]*Answer two\.[\s\S]*› three[\s\S]*Answer three\./);
  });
});

describe('a failing turn', () => {
  it('a host that breaks its never-throw contract shows an error and leaves the prompt usable', async () => {
    class BrokenHost extends TestToolHost {
      override async callTool(): Promise<never> {
        throw new Error('host bug: socket gone');
      }
    }
    const llm = new TestLlm([useTool('calculator', 'evaluate', { expression: '1+1' }), 'Recovered.']);
    const app = await startApp({ llm, host: new BrokenHost() });
    app.send('Add');
    await app.waitForScreen(/✗ host bug: socket gone/);
    app.send('Again');
    await app.waitForScreen(/Recovered\./);
  });
});

describe('quitting', () => {
  it.each([
    ['Ctrl+C', KEY.ctrlC],
    ['Ctrl+D', KEY.ctrlD],
  ])('%s at an empty prompt exits', async (_name, key) => {
    const app = await startApp();
    app.press(key);
    await app.waitUntil(() => expect(app.exited()).toBe(true));
  });

  it('Ctrl+C with text on the line clears it instead of exiting; Ctrl+D there does nothing', async () => {
    const app = await startApp();
    app.press('half a thought');
    await app.waitForScreen(/› half a thought/);
    app.press(KEY.ctrlD, KEY.ctrlC);
    await app.waitUntil(() => expect(app.inputLine()).toBe(''));
    expect(app.exited()).toBe(false);
  });
});

describe('input', () => {
  it('browses earlier inputs with ↑ and ↓', async () => {
    const app = await startApp();
    app.send('help');
    await app.waitForScreen(/Commands/);
    app.send('servers');
    await app.waitForScreen(/Servers:/);
    app.press('draft');
    await app.waitForScreen(/› draft/);
    app.press(KEY.up);
    await app.waitUntil(() => expect(app.inputLine()).toBe('servers'));
    app.press(KEY.up);
    await app.waitUntil(() => expect(app.inputLine()).toBe('help'));
    app.press(KEY.down);
    await app.waitUntil(() => expect(app.inputLine()).toBe('servers'));
    app.press(KEY.down);
    await app.waitUntil(() => expect(app.inputLine()).toBe('draft'));
  });

  it('edits the line with the arrow keys and Backspace', async () => {
    const llm = new TestLlm(['Fixed.']);
    const app = await startApp({ llm });
    app.press('hllo worldd');
    await app.waitForScreen(/› hllo worldd/);
    app.press(KEY.backspace);
    await app.waitForScreen(/› hllo world/);
    app.press(...Array<string>(9).fill(KEY.left), 'e', KEY.enter);
    await app.waitForScreen(/Fixed\./);
    expect(app.screen()).toContain('› hello world');
  });

  it('keeps pasted multi-line text whole and sends it as one message', async () => {
    const llm = new TestLlm(['Got both lines.']);
    const app = await startApp({ llm });
    app.press('first line\rsecond line');
    await app.waitForScreen(/› first line\n {2}second line/);
    expect(llm.scripted.requests).toHaveLength(0);
    app.press(KEY.enter);
    await app.waitForScreen(/Got both lines\./);
    expect(llm.scripted.requests).toHaveLength(1);
    expect(llm.scripted.sentContents(0)).toContain('first line\nsecond line');
  });

  it('keys pressed faster than one read each act, and none lands on the line as text', async () => {
    const app = await startApp();
    app.send('help');
    await app.waitForScreen(/Commands/);
    app.press('draft');
    await app.waitForScreen(/› draft/);
    // Ctrl+U, Ctrl+R and the search's first letters in one chunk: the line is cleared, then searched.
    app.press('\u0015\u0012hel');
    await app.waitForScreen(/search "hel" › help/);
    app.press(KEY.esc);
    await app.waitUntil(() => expect(app.inputLine()).toBe(''));
    // A word and two Backspaces (DEL), then a letter, in one chunk.
    app.press('abc\u007f\u007fX');
    await app.waitUntil(() => expect(app.inputLine()).toBe('aX'));
    // Ctrl+A then a letter: the letter goes to the start of the line.
    app.press('\u0001>');
    await app.waitUntil(() => expect(app.inputLine()).toBe('>aX'));
  });

  it('ignores empty and blank input', async () => {
    const llm = new TestLlm([]);
    const app = await startApp({ llm });
    app.press(KEY.enter);
    app.send('   ');
    app.send('help');
    await app.waitForScreen(/Commands/);
    expect(llm.scripted.requests).toHaveLength(0);
    expect(
      app
        .screen()
        .split('\n')
        .filter((line) => line.startsWith('›')),
    ).toEqual(['› help', '›']);
  });
});
