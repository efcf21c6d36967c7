/**
 * Approval in the REPL: a tool that changes things asks once — allow once, always for
 * this tool this session (each a key confirmed with Enter), or deny (and the model is told) —
 * and a cancel settles it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import type { ToolCall } from '../../src/vocabulary/types.js';
import { KEY, type RenderedApp, startApp, TestLlm, TestToolHost, useTool } from './render-app.js';

const write = (path: string): string => useTool('file', 'write_file', { path, content: 'hi' });
/** The question once it takes answers: every argument on its own line, that the file is new, then the keys. */
const QUESTION =
  /file\.write_file wants to run with:[\s│]*path: "a\.txt"[\s│]*content: "hi"[\s│]*new file \(reading it said: Error: no such file a\.txt\)[\s│]*\[y\] allow once {2}\[a\] always allow this tool {2}\[n\] deny {2}then Enter/;

/** The calls that ran, without the reads that compare a write with the file (the file is read, not changed). */
const ran = (host: TestToolHost): ToolCall[] => host.calls.filter((call) => call.tool !== 'read_file');

afterEach(() => cleanup());

/** Starts the App, asks it to write a.txt and resolves once the approval question is on screen. */
async function askedToWrite(laterReplies: string[]): Promise<{ app: RenderedApp; llm: TestLlm; host: TestToolHost }> {
  const llm = new TestLlm([write('a.txt'), ...laterReplies]);
  const host = new TestToolHost();
  const app = await startApp({ llm, host });
  app.send('Write a.txt');
  await app.waitForScreen(QUESTION);
  expect(ran(host)).toHaveLength(0);
  return { app, llm, host };
}

/** Frames drawn from now on, to show that a question was never asked. */
function framesFrom(app: RenderedApp): () => string[] {
  const start = app.ui.frames.length;
  return () => app.ui.frames.slice(start);
}

describe('approval', () => {
  it('y allows the call once; the next call asks again', async () => {
    const { app, host } = await askedToWrite(['Written.', write('a.txt'), 'Written again.']);
    app.press('y', KEY.enter);
    await app.waitForAnswer('Written.');
    expect(app.screen()).toMatch(/✓ file\.write_file\(path="a\.txt", content="hi"\) 1 ms → wrote a\.txt/);
    expect(app.screen()).not.toMatch(/wants to run/);

    app.send('Once more');
    // a.txt exists now: the question compares the write with it.
    await app.waitForScreen(/no change: the file already holds this content\)[\s│]*\[v\][^\n]*[\s│]*\[y\] allow once/);
    app.press('Y', KEY.enter);
    await app.waitForScreen(/Written again\./);
    expect(ran(host)).toHaveLength(2);
  });

  it('a allows this tool for the rest of the session, but not other tools', async () => {
    const { app, host } = await askedToWrite([
      'Written.',
      useTool('file', 'write_file', { path: 'b.txt', content: 'hi' }),
      'Written without asking.',
      useTool('file', 'delete_file', { path: 'b.txt' }),
      'Asked for the other tool.',
    ]);
    app.press('a', KEY.enter);
    await app.waitForAnswer('Written.');

    const later = framesFrom(app);
    app.send('Write b.txt');
    await app.waitForAnswer('Written without asking.');
    expect(app.screen()).toMatch(/✓ file\.write_file\(path="b\.txt", content="hi"\) 1 ms → wrote b\.txt/);
    expect(later().some((frame) => frame.includes('wants to run'))).toBe(false);

    app.send('Delete b.txt');
    await app.waitForScreen(/file\.delete_file wants to run with:[\s│]*path: "b\.txt"[\s│]*\[y\] allow once/);
    app.press('y', KEY.enter);
    await app.waitForScreen(/Asked for the other tool\./);
    expect([...host.files.keys()]).toEqual(['a.txt']);
  });

  it.each([
    ['n', 'n'],
    ['Esc', KEY.esc],
  ])('%s denies the call, shows it as refused, and the model is told', async (_name, key) => {
    const { app, llm, host } = await askedToWrite(['Understood, I did not write it.']);
    app.press(key);
    await app.waitForScreen(/Understood, I did not write it\./);
    expect(app.screen()).toMatch(
      /✗ file\.write_file\(path="a\.txt", content="hi"\) 0 ms → The user did not approve running file\.write_/,
    );
    expect(ran(host)).toHaveLength(0);
    expect(llm.scripted.sentContents(1)).toContain('The user did not approve running file.write_file. It was not run.');
  });

  it('other keys do not answer the question, nor does Enter without a choice', async () => {
    const { app, host } = await askedToWrite(['Written.']);
    app.press('x', KEY.enter);
    expect(ran(host)).toHaveLength(0);
    app.press('y', KEY.enter);
    await app.waitForScreen(/Written\./);
    expect(ran(host)).toHaveLength(1);
    expect(app.inputLine()).toBe('');
  });

  it('Ctrl+C while asking cancels the turn without running the tool', async () => {
    const { app, host } = await askedToWrite(['Next answer.']);
    app.press(KEY.ctrlC);
    await app.waitForScreen(/Cancelled\./);
    expect(app.screen()).not.toMatch(/wants to run/);
    expect(ran(host)).toHaveLength(0);
    app.send('Hello again');
    await app.waitForScreen(/Next answer\./);
    expect(app.exited()).toBe(false);
  });
});
