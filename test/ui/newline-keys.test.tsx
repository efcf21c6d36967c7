/**
 * Typing a message of several lines in the REPL, through Ink's own key parsing: Alt+Enter (ESC
 * then CR), Ctrl+J (a line feed) and `\` then Enter each put a newline on the input line, and
 * Enter sends all of it as one message; a pasted block of lines is one message too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { KEY, startApp, TestLlm } from './render-app.js';

const ALT_ENTER = '\u001b\r';
const CTRL_J = '\n';

afterEach(() => cleanup());

describe('a newline typed on the input line', () => {
  it('Alt+Enter, Ctrl+J and a backslash then Enter each break the line; Enter sends one message', async () => {
    const llm = new TestLlm(['Four lines read.']);
    const app = await startApp({ llm });
    for (const [text, key] of [
      ['one', ALT_ENTER],
      ['two', CTRL_J],
      ['three\\', KEY.enter],
    ]) {
      app.press(text ?? '');
      await app.waitForScreen(text ?? '');
      app.press(key ?? '');
    }
    app.press('four');
    await app.waitForScreen(/three\n\s*four/);
    expect(llm.scripted.requests).toHaveLength(0);
    app.press(KEY.enter);
    await app.waitForAnswer('Four lines read.');
    expect(llm.scripted.requests).toHaveLength(1);
    expect(llm.scripted.requests[0]?.messages.at(-1)).toMatchObject({ role: 'user', content: 'one\ntwo\nthree\nfour' });
  });

  it('a pasted block of lines stays on the input line, then goes as one message', async () => {
    const llm = new TestLlm(['Pasted.']);
    const app = await startApp({ llm });
    app.press('first line\rsecond line\rthird line\r');
    await app.waitForScreen(/third line/);
    expect(llm.scripted.requests).toHaveLength(0);
    app.press(KEY.enter);
    await app.waitForAnswer('Pasted.');
    expect(llm.scripted.requests.map((request) => request.messages.at(-1)?.content)).toEqual([
      'first line\nsecond line\nthird line',
    ]);
  });
});
