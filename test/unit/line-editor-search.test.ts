/** Ctrl+R in the line editor: a reverse incremental search through earlier inputs, as in a shell. */
import { describe, expect, it } from 'vitest';
import { type EditorKey, type LineState, editLine, emptyLine, searchPrompt } from '../../src/ui/line-editor.js';

type Step = string | [string, EditorKey];

function keys(state: LineState, ...steps: Step[]): LineState {
  return steps.reduce(
    (s, step) => (typeof step === 'string' ? editLine(s, step, {}) : editLine(s, step[0], step[1])).state,
    state,
  );
}

const ctrlR: Step = ['r', { ctrl: true }];
const recall = ['git status', 'deploy to staging', 'git log --oneline', 'what is 2+2'];
const start: LineState = { ...emptyLine, recall, text: 'draft', cursor: 5 };

describe('reverse search (Ctrl+R)', () => {
  it('finds the newest input containing what is typed, and shows it on the line', () => {
    const state = keys(start, ctrlR, 'g', 'i', 't');
    expect(state.text).toBe('git log --oneline');
    expect(state.search).toMatchObject({ query: 'git', match: 2, failed: false });
    expect(searchPrompt(state.search!)).toEqual({
      label: 'search "git"',
      hint: 'type to search earlier inputs · Ctrl+R older · Enter takes it · Esc leaves',
    });
  });

  it('Ctrl+R again goes to an older match; past the oldest it stays, marked failed', () => {
    let state = keys(start, ctrlR, 'g', 'i', 't', ctrlR);
    expect(state.text).toBe('git status');
    state = keys(state, ctrlR);
    expect(state.text).toBe('git status');
    expect(state.search?.failed).toBe(true);
  });

  it('Enter takes the match onto the line without sending it', () => {
    const result = editLine(keys(start, ctrlR, 'd', 'e', 'p'), '\r', { return: true });
    expect(result.submitted).toBeUndefined();
    expect(result.state).toMatchObject({ text: 'deploy to staging', cursor: 17, search: undefined });
    const sent = editLine(result.state, '\r', { return: true });
    expect(sent.submitted).toBe('deploy to staging');
  });

  it('Esc, Ctrl+C and Ctrl+G leave the search with the line as it was', () => {
    for (const leave of [
      ['', { escape: true }],
      ['c', { ctrl: true }],
      ['g', { ctrl: true }],
    ] as [string, EditorKey][]) {
      const state = keys(start, ctrlR, 'g', 'i', 't', leave);
      expect(state).toMatchObject({ text: 'draft', cursor: 5, search: undefined });
    }
  });

  it('a query nothing matches is marked failed, and Backspace widens it again', () => {
    let state = keys(start, ctrlR, 'x', 'y', 'z');
    expect(state.search?.failed).toBe(true);
    expect(searchPrompt(state.search!).hint).toContain('no earlier input has "xyz"');
    expect(state.text).toBe('draft');
    state = keys(start, ctrlR, 'w', 'h', 'q', ['', { backspace: true }]);
    expect(state.search).toMatchObject({ query: 'wh', failed: false });
    expect(state.text).toBe('what is 2+2');
  });

  it('an editing key takes the match and then edits it', () => {
    const state = keys(start, ctrlR, 's', 't', 'a', 't', 'u', 's', ['a', { ctrl: true }], 'X');
    expect(state).toMatchObject({ text: 'Xgit status', search: undefined });
  });

  it('keys and Enter in one chunk narrow the search, then take the match without sending it', () => {
    const result = editLine(keys(start, ctrlR), 'dep\r', {});
    expect(result.submitted).toBeUndefined();
    expect(result.state).toMatchObject({ text: 'deploy to staging', search: undefined });
  });

  it('with nothing found, Enter leaves the line as it was', () => {
    const state = editLine(keys(start, ctrlR, 'q', 'q'), '\r', { return: true }).state;
    expect(state).toMatchObject({ text: 'draft', search: undefined });
  });
});
