/**
 * Attacks on the approval question, through the REPL's keys: keys typed ahead while a reply streams
 * must not answer it, and a path placed after a long argument must not hide from it. The question's
 * wait before it takes an answer runs on a fake clock, so a key lands inside that wait however busy
 * the machine is: nothing here depends on how fast a person, or the test, types.
 */
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEY, startApp, TestLlm, TestToolHost, useTool } from './render-app.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('approval attacks in the REPL', () => {
  it('typed-ahead answer: keys typed while the reply streams never answer the question, and stay in the input line', async () => {
    // Timeouts only: the model's chunks and Ink's rendering run as usual, the wait only as far as the test lets it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const write = useTool('file', 'write_file', { path: 'notes.txt', content: 'owned' });
    const llm = new TestLlm([`Sure, I will write the notes file for you right now.\n${write}`, 'Not written.']);
    const host = new TestToolHost();
    const app = await startApp({ llm, host });
    app.send('Write the notes');
    await app.waitForScreen('Sure, I will');
    // The next message, begun while the reply streams; the question appears in the middle of it.
    app.press(...'thanks ');
    await app.waitForScreen('wants to run');
    app.press(...'and yes', KEY.enter);
    // "a" of "and", "y" of "yes", and Enter answered nothing: the question is still open, nothing was written.
    await app.waitUntil(() => expect(app.inputLine()).toBe('thanks and yes'));
    expect(app.screen()).toContain('wants to run');
    expect(app.screen()).not.toContain('[y] allow once');
    expect(host.calls).toHaveLength(0);
    app.press(KEY.esc);
    await app.waitForAnswer('Not written.');
    expect(host.calls).toHaveLength(0);
    expect(app.inputLine()).toBe('thanks and yes');
  });

  it('argument hiding: a path written after a long harmless content is shown whole before anything runs', async () => {
    const content = `${'These are harmless release notes.\n'.repeat(300)}The end.`;
    const hook = '.git/hooks/pre-commit';
    const llm = new TestLlm([useTool('file', 'write_file', { content, path: hook }), 'Refused, fine.']);
    const host = new TestToolHost();
    const app = await startApp({ llm, host });
    app.send('Update the release notes');
    await app.waitForScreen('[y] allow once');
    const screen = app.screen();
    expect(screen).toContain(`path: "${hook}"`);
    expect(screen).toContain(`content: ${content.length.toLocaleString('en-US')} characters, 301 lines`);
    expect(screen).toContain('first line "These are harmless release notes."');
    expect(screen).toContain('last line  "The end."');
    app.press('n');
    await app.waitForAnswer('Refused, fine.');
    expect(host.calls).toHaveLength(0);
    expect(app.screen()).toMatch(/✗ file\.write_file\(path="\.git\/hooks\/pre-commit", content=/);
  });
});
