/**
 * What a resumed session draws (the end of its screen, from the start of a turn, within a budget)
 * and that what it does not draw is still saved with the next turn.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RESUMED_CHARS_SHOWN } from '../../src/state/resume-view.js';
import type { SavedItem, SavedSession } from '../../src/state/session-file.js';
import { SessionKeeper } from '../../src/state/session-keeper.js';
import { SessionStore } from '../../src/state/session-store.js';
import { resumedScreen } from '../../src/ui/chat-state.js';
import type { NewHistoryItem } from '../../src/ui/history.js';

/** What the chat draws for a resumed session: its turns, then the line saying where it goes on. */
function resumedItems(session: SavedSession, note?: string): NewHistoryItem[] {
  const { shown, said } = resumedScreen(session, note);
  return [...shown, said];
}

function saved(screen: SavedItem[]): SavedSession {
  return {
    format: 1,
    name: 'demo',
    model: 'llama3.2',
    createdAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T10:05:00.000Z',
    turns: screen.filter((item) => item.type === 'user').length,
    title: 'q0',
    messages: [{ role: 'user', content: 'q0' }],
    screen,
  };
}

const turns = (count: number, answerChars: number, from = 0): SavedItem[] =>
  Array.from({ length: count }, (_, n): SavedItem[] => [
    { type: 'user', text: `q${from + n}` },
    { type: 'assistant', text: 'a'.repeat(answerChars) },
  ]).flat();

describe('resumed items', () => {
  it('a short session is drawn whole, then a line saying where it goes on', () => {
    const items = resumedItems(saved(turns(2, 10)));
    expect(items.slice(0, 4)).toEqual(turns(2, 10));
    expect(items.at(-1)).toEqual({
      type: 'info',
      text: expect.stringMatching(
        /^Resumed session demo: 2 turns, model llama3\.2, last saved .*\. It goes on here\.$/,
      ),
    });
  });

  it('a long one draws its last turns from the start of a turn, and says how many', () => {
    const items = resumedItems(saved(turns(500, 400)));
    expect(items[0]).toMatchObject({ type: 'user' });
    expect(items.at(-2)).toEqual({ type: 'assistant', text: 'a'.repeat(400) });
    const drawn = items.slice(0, -1);
    const chars = drawn.reduce((sum, item) => sum + ('text' in item ? item.text.length : 0), 0);
    expect(chars).toBeLessThanOrEqual(RESUMED_CHARS_SHOWN);
    expect(chars).toBeGreaterThan(RESUMED_CHARS_SHOWN / 2);
    const shownTurns = drawn.filter((item) => item.type === 'user').length;
    expect(items.at(-1)).toMatchObject({
      text: expect.stringContaining(`500 turns (the last ${shownTurns} above; /export <file.md> writes them all)`),
    });
  });

  it('the last turn is drawn whole even when it alone is larger than the budget', () => {
    const long: SavedItem[] = [
      { type: 'user', text: 'long one' },
      { type: 'assistant', text: 'x'.repeat(50_000) },
    ];
    const items = resumedItems(saved([...turns(3, 10), ...long]));
    expect(items.slice(0, 2)).toEqual(long);
  });

  it('a note (the model could not be switched) follows the resumed line', () => {
    expect(resumedItems(saved(turns(1, 1)), 'The session model is gone.').at(-1)).toMatchObject({
      text: expect.stringMatching(/It goes on here\.\nThe session model is gone\.$/),
    });
  });
});

describe('what is not drawn is still saved', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-resumed-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a turn after resuming a long session saves every earlier turn, then the new one', async () => {
    const store = new SessionStore(dir);
    const before = saved(turns(300, 400));
    store.save(before);
    const keeper = new SessionKeeper(store);
    keeper.adopt(store.load('demo'));
    // What the chat hands over: the resumed line and the new turn (it draws part of the session, and saves none of it again).
    const { shown, said } = resumedScreen(before);
    expect(shown.length).toBeLessThan(before.screen.length);
    const handed = [said, ...turns(1, 5, 300)];
    await keeper.save({ model: 'llama3.2', messages: before.messages, shown: handed, answered: true });
    const after = store.load('demo');
    expect(after.turns).toBe(301);
    expect(after.screen.slice(0, before.screen.length)).toEqual(before.screen);
    expect(after.screen.slice(before.screen.length)).toEqual(handed);
    expect(after.screen.filter((item) => item.type === 'user')).toHaveLength(301);
  });
});
