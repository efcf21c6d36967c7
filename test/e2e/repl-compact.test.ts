/**
 * Compaction as a person sees it (tmux, the built binary, the fake Ollama): `/compact` has the
 * model summarise the earlier turns, the screen says so, and later requests carry the summary
 * instead of those turns, after a resume too; a summary that fails leaves the conversation whole;
 * with `history.compact_at` set low and a small `num_ctx`, the REPL compacts before a turn by itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { FakeChatRequest, FakeOllama } from '../fakes/fake-ollama.js';
import { type ReplSession, SCREEN_WAIT, useReplSession } from '../helpers/repl-session.js';
import { TmuxPane } from '../helpers/tmux.js';

const SUMMARY_HEADING = 'Summary of the earlier turns of this conversation, which it replaces:';
const isSummaryRequest = (request: FakeChatRequest): boolean =>
  request.messages[0]?.content.includes('Write a concise summary of the conversation so far') === true;
const summaryRequests = (ollama: FakeOllama): FakeChatRequest[] => ollama.chatRequests.filter(isSummaryRequest);
/** The messages of the last request a turn sent (not a summary's, not a model load). */
const lastTurnSent = (ollama: FakeOllama) =>
  ollama.chatRequests.filter((request) => request.messages.length > 0 && !isSummaryRequest(request)).at(-1)?.messages;
/** A message long enough that a summary of it is shorter. */
const long = (topic: string): string => `${topic} ${'and some detail about it '.repeat(30)}`;

/** Resolves once the screen shows a line matching `pattern`, wherever the pane's width wrapped it. */
const showsLine = (repl: ReplSession, pattern: RegExp): Promise<void> =>
  vi.waitFor(() => expect(repl.pane.screen().replace(/\s*\n\s*/g, ' ')).toMatch(pattern), SCREEN_WAIT);

const stateHome = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-repl-compact-')));
afterAll(() => fs.rmSync(stateHome, { recursive: true, force: true }));

describe.skipIf(!TmuxPane.available())('/compact in the REPL', () => {
  const repl = useReplSession({ config: { mcpServers: {} }, env: { XDG_STATE_HOME: stateHome } });

  async function say(text: string, answer: string): Promise<void> {
    repl.ollama.script(answer);
    repl.pane.type(text, 'Enter');
    await repl.shows(answer);
  }

  it('replaces the earlier turns with the summary the model writes, and says so', async () => {
    await repl.shows('ollama ✓');
    await say(long('The code word is PINEAPPLE.'), 'Noted the code word.');
    await say(long('The budget is 4,200 euros.'), 'Noted the budget.');
    await say(long('The deadline is Friday.'), 'Noted the deadline.');
    await say(long('The venue is Lisbon.'), 'Noted the venue.');
    repl.ollama.script('The code word is PINEAPPLE; the budget is 4,200 euros.');
    repl.pane.type('/compact', 'Enter');
    await showsLine(repl, /Compacted 2 earlier turns into a summary \(about [\d,]+ → [\d,]+ tokens\)\./);

    const [request] = summaryRequests(repl.ollama);
    expect(request?.tools).toBeUndefined();
    const transcript = request?.messages[1]?.content ?? '';
    expect(transcript).toContain('PINEAPPLE');
    expect(transcript).not.toContain('The venue is Lisbon.');

    await say('What was the code word?', 'It was PINEAPPLE.');
    const sent = lastTurnSent(repl.ollama) ?? [];
    expect(sent[1]).toEqual({
      role: 'system',
      content: `${SUMMARY_HEADING}\nThe code word is PINEAPPLE; the budget is 4,200 euros.`,
    });
    const contents = sent.map((message) => message.content).join('\n');
    expect(contents).not.toContain('The code word is PINEAPPLE. and some detail');
    expect(contents).toContain('The deadline is Friday.');
  }, 60_000);

  it('a summary that fails leaves the conversation whole, and says why in one line', async () => {
    const before = lastTurnSent(repl.ollama) ?? [];
    repl.ollama.script({ status: 500, error: 'llama runner process has terminated' });
    repl.pane.type('/compact', 'Enter');
    await showsLine(
      repl,
      /The conversation was not compacted: Ollama at \S+ answered HTTP 500: llama runner process has terminated\. It is kept as it was\./,
    );
    await say('And the venue?', 'In Portugal.');
    const after = lastTurnSent(repl.ollama) ?? [];
    // The request before, its answer, then the new message: nothing of the history went missing.
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map((message) => message.content)).toEqual([
      'It was PINEAPPLE.',
      'And the venue?',
    ]);
  });

  it('a resumed session carries the summary', async () => {
    repl.pane.type('', 'C-d');
    await vi.waitFor(() => expect(repl.pane.exited()).toBe(true), SCREEN_WAIT);
    repl.restart(['--resume', 'latest']);
    await repl.shows('Resumed session ');
    await repl.shows('ollama ✓');
    await say('Anything else?', 'No.');
    expect(lastTurnSent(repl.ollama)?.[1]?.content).toContain(`${SUMMARY_HEADING}\nThe code word is PINEAPPLE`);
  });
});

describe.skipIf(!TmuxPane.available())('automatic compaction (history.compact_at)', () => {
  const repl = useReplSession({
    config: { mcpServers: {}, ollama: { num_ctx: 2048 }, history: { compact_at: 0.3 } },
    env: { XDG_STATE_HOME: stateHome },
  });

  it('compacts before the turn that would pass the share, and says so', async () => {
    await repl.shows('ollama ✓');
    for (const [text, answer] of [
      [long('The code word is PINEAPPLE.'), 'Noted the code word.'],
      [long('The budget is 4,200 euros.'), 'Noted the budget.'],
    ] as const) {
      repl.ollama.script(answer);
      repl.pane.type(text, 'Enter');
      await repl.shows(answer);
    }
    expect(summaryRequests(repl.ollama)).toHaveLength(0);
    repl.ollama.script('The code word is PINEAPPLE.', 'Friday it is.');
    repl.pane.type(long('The deadline is Friday.'), 'Enter');
    await repl.shows('Friday it is.');
    await showsLine(
      repl,
      /Compacted 1 earlier turn into a summary \(about [\d,]+ → [\d,]+ tokens\) before this turn, as history\.compact_at asks\./,
    );
    expect(summaryRequests(repl.ollama)).toHaveLength(1);
    const sent = lastTurnSent(repl.ollama) ?? [];
    expect(sent[1]?.content).toBe(`${SUMMARY_HEADING}\nThe code word is PINEAPPLE.`);
    expect(sent.map((message) => message.content)).toContain(long('The budget is 4,200 euros.').trim());
  }, 60_000);
});

describe.skipIf(!TmuxPane.available())('/compact, then quit before another turn', () => {
  const repl = useReplSession({ config: { mcpServers: {} }, env: { XDG_STATE_HOME: stateHome } });

  it('the saved session already holds the summary', async () => {
    await repl.shows('ollama ✓');
    for (const [text, answer] of [
      [long('The colour is TEAL.'), 'Noted the colour.'],
      [long('The size is XL.'), 'Noted the size.'],
      [long('The shop is in Porto.'), 'Noted the shop.'],
    ] as const) {
      repl.ollama.script(answer);
      repl.pane.type(text, 'Enter');
      await repl.shows(answer);
    }
    repl.ollama.script('The colour is TEAL and the size XL.');
    repl.pane.type('/compact', 'Enter');
    await showsLine(repl, /Compacted \d earlier turns? into a summary/);
    repl.pane.type('', 'C-d');
    await vi.waitFor(() => expect(repl.pane.exited()).toBe(true), SCREEN_WAIT);
    repl.restart(['--resume', 'latest']);
    await repl.shows('ollama ✓');
    repl.ollama.script('TEAL.');
    repl.pane.type('Which colour?', 'Enter');
    await repl.shows('TEAL.');
    expect(lastTurnSent(repl.ollama)?.[1]?.content).toBe(`${SUMMARY_HEADING}\nThe colour is TEAL and the size XL.`);
  }, 60_000);
});
