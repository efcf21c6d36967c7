import { describe, expect, it } from 'vitest';
import { type EditorKey, type LineState, editLine, emptyLine } from '../../src/ui/line-editor.js';

function type(state: LineState, ...steps: (string | [string, EditorKey])[]): LineState {
  return steps.reduce(
    (s, step) => (typeof step === 'string' ? editLine(s, step, {}) : editLine(s, step[0], step[1])).state,
    state,
  );
}

describe('line editor', () => {
  it('inserts, moves the cursor and deletes', () => {
    const state = type(emptyLine, 'h', 'e', 'l', 'o', ['', { leftArrow: true }], 'l', ['', { rightArrow: true }], '!', [
      '',
      { delete: true },
    ]);
    expect(state).toMatchObject({ text: 'hello', cursor: 5 });
  });

  it('submits on Enter, ignores an empty line, and keeps history for ↑/↓', () => {
    let result = editLine(type(emptyLine, 'first'), '\r', { return: true });
    expect(result.submitted).toBe('first');
    result = editLine(type(result.state, 'second'), '\r', { return: true });
    const empty = editLine(type(result.state, ' '), '\r', { return: true });
    expect(empty.submitted).toBeUndefined();
    let state = type(empty.state, 'draft', ['', { upArrow: true }]);
    expect(state.text).toBe('second');
    state = type(state, ['', { upArrow: true }], ['', { upArrow: true }]);
    expect(state.text).toBe('first');
    state = type(state, ['', { downArrow: true }], ['', { downArrow: true }]);
    expect(state.text).toBe('draft');
  });

  it('keeps pasted multi-line text whole instead of submitting it', () => {
    const result = editLine(emptyLine, 'line one\rline two\r\nline three', {});
    expect(result.submitted).toBeUndefined();
    expect(result.state.text).toBe('line one\nline two\nline three');
  });

  it('Alt+Enter breaks the line at the cursor instead of sending it; Enter then sends both lines as one message', () => {
    const state = type(
      emptyLine,
      'first second',
      ...Array.from({ length: 7 }, () => ['', { leftArrow: true }] as [string, EditorKey]),
    );
    const broken = editLine(state, '', { return: true, meta: true });
    expect(broken.submitted).toBeUndefined();
    expect(broken.state).toMatchObject({ text: 'first\n second', cursor: 6 });
    expect(editLine(broken.state, '\r', { return: true }).submitted).toBe('first\n second');
  });

  it('Ctrl+J, a line feed, is a newline on the line, not Enter', () => {
    const result = editLine(type(emptyLine, 'one'), '\n', {});
    expect(result.submitted).toBeUndefined();
    expect(type(result.state, 'two')).toMatchObject({ text: 'one\ntwo', cursor: 7 });
  });

  it('a backslash then Enter becomes a newline, also when the line and its Enter come in one chunk', () => {
    const typed = editLine(type(emptyLine, 'one\\'), '\r', { return: true });
    expect(typed.submitted).toBeUndefined();
    expect(typed.state).toMatchObject({ text: 'one\n', cursor: 4 });
    const fast = editLine(emptyLine, 'one\\\r', {});
    expect(fast.submitted).toBeUndefined();
    expect(fast.state.text).toBe('one\n');
    // A backslash anywhere else is text, sent as typed.
    expect(editLine(type(emptyLine, 'a\\b'), '\r', { return: true }).submitted).toBe('a\\b');
  });

  it('submits a line that arrives together with its Enter', () => {
    const result = editLine(type(emptyLine, 'ask: '), 'what now?\r', {});
    expect(result.submitted).toBe('ask: what now?');
    expect(result.state.text).toBe('');
  });

  it('supports Ctrl+A, Ctrl+E, Ctrl+U, Ctrl+K and Ctrl+W', () => {
    const base = type(emptyLine, 'one two three');
    expect(type(base, ['w', { ctrl: true }]).text).toBe('one two ');
    expect(type(base, ['a', { ctrl: true }], ['k', { ctrl: true }]).text).toBe('');
    const middle = type(
      base,
      ['a', { ctrl: true }],
      ['', { rightArrow: true }],
      ['', { rightArrow: true }],
      ['', { rightArrow: true }],
    );
    expect(type(middle, ['u', { ctrl: true }])).toMatchObject({ text: ' two three', cursor: 0 });
    expect(type(middle, ['e', { ctrl: true }]).cursor).toBe(13);
  });
});
