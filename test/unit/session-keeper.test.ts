/**
 * The keeper of a chat's session: nothing is written before something is said; each save
 * counts answered turns, keeps the title, strips ids, banners and images, adds what the screen
 * showed since the last save to the screen it keeps, and bounds it;
 * `/save` moves an automatically named session and copies a named one; `clear` starts anew.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/vocabulary/types.js';
import { MAX_SAVED_ITEMS, SessionKeeper, type ScreenItem } from '../../src/state/session-keeper.js';
import { SessionStore } from '../../src/state/session-store.js';

let root: string;
let store: SessionStore;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-keeper-'));
  store = new SessionStore(path.join(root, 'sessions'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const fixedNow = (): Date => new Date(2025, 2, 1, 14, 25, 1);
const messages: ChatMessage[] = [
  { role: 'user', content: 'First question\nwith a second line' },
  { role: 'assistant', content: 'An answer.' },
];
const screen: ScreenItem[] = [
  { type: 'banner' },
  { type: 'user', text: 'First question' },
  {
    type: 'tool',
    call: { server: 's', tool: 't', arguments: {} },
    result: {
      isError: false,
      forModel: 'ok',
      durationMs: 1,
      images: [{ data: 'AAAA', mimeType: 'image/png', label: 'png' }],
    },
  },
  { type: 'assistant', text: 'An answer.' },
];

describe('session keeper', () => {
  it('an automatic name says when the session began, and two chats in one second get two names', async () => {
    const a = new SessionKeeper(store, undefined, fixedNow);
    const b = new SessionKeeper(store, undefined, fixedNow);
    expect(a.sessionName).toMatch(/^2025-03-01-142501-[0-9a-f]{4}$/);
    expect(a.sessionName).not.toBe(b.sessionName);
  });

  it('writes nothing while nothing has been said', async () => {
    const keeper = new SessionKeeper(store, 'quiet');
    expect(
      await keeper.save({ model: 'm', messages: [], shown: [{ type: 'banner' }], answered: false }),
    ).toBeUndefined();
    expect(store.exists('quiet')).toBe(false);
  });

  it('saves the model, the messages, the title and the screen without banner or images; counts answered turns', async () => {
    const keeper = new SessionKeeper(store, 'demo');
    await keeper.save({ model: 'llama3.2', messages, shown: screen, answered: true });
    const failed: ScreenItem = { type: 'error', text: 'the model is gone' };
    await keeper.save({ model: 'qwen3', messages, shown: [failed], answered: false });
    const saved = store.load('demo');
    expect(saved).toMatchObject({ name: 'demo', model: 'qwen3', turns: 1, title: 'First question' });
    expect(saved.messages).toEqual(messages);
    expect(saved.screen).toEqual([
      { type: 'user', text: 'First question' },
      {
        type: 'tool',
        call: { server: 's', tool: 't', arguments: {} },
        result: { isError: false, forModel: 'ok', durationMs: 1 },
      },
      { type: 'assistant', text: 'An answer.' },
      failed,
    ]);
  });

  it('keeps the screen bounded when it comes a turn at a time, the newest items last', async () => {
    const keeper = new SessionKeeper(store, 'turns');
    const turn = (n: number): ScreenItem[] => [
      { type: 'user', text: `q${n}` },
      { type: 'assistant', text: `a${n}` },
    ];
    const turns = MAX_SAVED_ITEMS / 2 + 5;
    for (let n = 0; n < turns; n++) await keeper.save({ model: 'm', messages, shown: turn(n), answered: true });
    const saved = store.load('turns').screen;
    expect(saved).toHaveLength(MAX_SAVED_ITEMS);
    expect(saved[0]).toEqual({ type: 'user', text: 'q5' });
    expect(saved.slice(-2)).toEqual(turn(turns - 1));
  });

  it('keeps only the last MAX_SAVED_ITEMS screen items', async () => {
    const keeper = new SessionKeeper(store, 'long');
    const many: ScreenItem[] = Array.from({ length: MAX_SAVED_ITEMS + 10 }, (_, n) => ({ type: 'info', text: `${n}` }));
    await keeper.save({ model: 'm', messages, shown: many, answered: true });
    const saved = store.load('long').screen;
    expect(saved).toHaveLength(MAX_SAVED_ITEMS);
    expect(saved[0]).toEqual({ type: 'info', text: '10' });
  });

  it('adopting a saved session goes on counting its turns and keeps its name, title and start', async () => {
    const first = new SessionKeeper(store, 'demo');
    await first.save({ model: 'm', messages, shown: screen, answered: true });
    const { createdAt: began, screen: firstScreen } = store.load('demo');
    const second = new SessionKeeper(store);
    second.adopt(store.load('demo'));
    await second.save({
      model: 'm',
      messages: [...messages, { role: 'user', content: 'Again' }],
      shown: screen,
      answered: true,
    });
    const saved = store.load('demo');
    expect(saved.turns).toBe(2);
    expect(saved.title).toBe('First question');
    expect(saved.createdAt).toBe(began);
    // The adopted session's screen, then what was shown since.
    expect(saved.screen).toEqual([...firstScreen, ...firstScreen]);
  });

  it('/save moves an automatically named session, and copies a named one', async () => {
    const keeper = new SessionKeeper(store);
    const automatic = keeper.sessionName;
    await keeper.save({ model: 'm', messages, shown: screen, answered: true });
    await keeper.saveAs('kept');
    expect(store.exists(automatic)).toBe(false);
    expect(store.load('kept').turns).toBe(1);
    await keeper.saveAs('copy');
    expect(store.exists('kept')).toBe(true);
    expect(store.exists('copy')).toBe(true);
    await keeper.save({ model: 'm', messages, shown: screen, answered: true });
    expect(store.load('copy').turns).toBe(2);
    expect(store.load('kept').turns).toBe(1);
  });

  it('/save refuses a name another session has', async () => {
    await new SessionKeeper(store, 'taken').save({ model: 'm', messages, shown: screen, answered: true });
    const keeper = new SessionKeeper(store, 'mine');
    await expect(keeper.saveAs('taken')).rejects.toThrow('a session named taken exists already');
  });

  it('after clear the next turn is a new session; the earlier one stays', async () => {
    const keeper = new SessionKeeper(store, 'before');
    await keeper.save({ model: 'm', messages, shown: screen, answered: true });
    keeper.startNew();
    expect(keeper.sessionName).not.toBe('before');
    await keeper.save({ model: 'm', messages: [{ role: 'user', content: 'New topic' }], shown: [], answered: true });
    expect(store.load(keeper.sessionName)).toMatchObject({ turns: 1, title: 'New topic' });
    expect(store.load('before').turns).toBe(1);
  });
});
