/**
 * Compaction as a person sees it (the chat wired as the program wires it, its session store, the
 * fake Ollama): `/compact` has the model summarise the earlier turns, the screen says so, and later
 * requests carry the summary instead of those turns, after a resume too; a summary that fails
 * leaves the conversation whole; with `history.compact_at` set low and a small `num_ctx`, the REPL
 * compacts before a turn by itself.
 */
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeChatRequest, FakeOllama } from '../fakes/fake-ollama.js';
import { type LiveRepl, useLiveRepl } from './live-repl.js';
import type { RenderedApp } from './render-app.js';

const SUMMARY_HEADING = 'Summary of the earlier turns of this conversation, which it replaces:';
const isSummaryRequest = (request: FakeChatRequest): boolean =>
  request.messages[0]?.content.includes('Write a concise summary of the conversation so far') === true;
const summaryRequests = (ollama: FakeOllama): FakeChatRequest[] => ollama.chatRequests.filter(isSummaryRequest);
/** The messages of the last request a turn sent (not a summary's, not a model load). */
const lastTurnSent = (ollama: FakeOllama) =>
  ollama.chatRequests.filter((request) => request.messages.length > 0 && !isSummaryRequest(request)).at(-1)?.messages;
/** A message long enough that a summary of it is shorter. */
const long = (topic: string): string => `${topic} ${'and some detail about it '.repeat(30)}`;

/** Resolves once the screen shows a line matching `pattern`, wherever the width wrapped it. */
const showsLine = (app: RenderedApp, pattern: RegExp): Promise<void> =>
  app.waitUntil(() => expect(app.screen().replace(/\s*\n\s*/g, ' ')).toMatch(pattern));

/** Opens the chat (resuming the latest session with `resume`) once Ollama has answered the start check. */
async function opened(repl: LiveRepl, resume?: string): Promise<RenderedApp> {
  const app = await repl.open(resume === undefined ? {} : { resume });
  await app.waitForScreen('ollama ✓');
  return app;
}

/** Says each line and waits for its answer. */
async function say(repl: LiveRepl, app: RenderedApp, ...turns: (readonly [string, string])[]): Promise<void> {
  for (const [text, answer] of turns) {
    repl.ollama.script(answer);
    app.send(text);
    await app.waitForAnswer(answer);
  }
}

afterEach(() => cleanup());

describe('/compact in the REPL', () => {
  // A bound the user sets: the turns kept verbatim are at most half of it.
  const repl = useLiveRepl({ config: { mcpServers: {}, history: { max_messages: 10 } } });

  it('replaces the earlier turns with the summary the model writes, and says so', async () => {
    const app = await opened(repl);
    await say(
      repl,
      app,
      [long('The code word is PINEAPPLE.'), 'Noted the code word.'],
      [long('The budget is 4,200 euros.'), 'Noted the budget.'],
      [long('The deadline is Friday.'), 'Noted the deadline.'],
      [long('The venue is Lisbon.'), 'Noted the venue.'],
    );
    repl.ollama.script('The code word is PINEAPPLE; the budget is 4,200 euros.');
    app.send('/compact');
    await showsLine(app, /Compacted 2 earlier turns into a summary \(about [\d,]+ → [\d,]+ tokens\)\./);

    const [request] = summaryRequests(repl.ollama);
    expect(request?.tools).toBeUndefined();
    const transcript = request?.messages[1]?.content ?? '';
    expect(transcript).toContain('PINEAPPLE');
    expect(transcript).not.toContain('The venue is Lisbon.');

    await say(repl, app, ['What was the code word?', 'It was PINEAPPLE.']);
    const sent = lastTurnSent(repl.ollama) ?? [];
    expect(sent[1]).toEqual({
      role: 'system',
      content: `${SUMMARY_HEADING}\nThe code word is PINEAPPLE; the budget is 4,200 euros.`,
    });
    const contents = sent.map((message) => message.content).join('\n');
    expect(contents).not.toContain('The code word is PINEAPPLE. and some detail');
    expect(contents).toContain('The deadline is Friday.');
  });

  it('a summary that fails leaves the conversation whole, and says why in one line', async () => {
    const app = await repl.newScreen();
    const before = lastTurnSent(repl.ollama) ?? [];
    repl.ollama.script({ status: 500, error: 'llama runner process has terminated' });
    app.send('/compact');
    await showsLine(
      app,
      /The conversation was not compacted: Ollama at \S+ answered HTTP 500: llama runner process has terminated\. It is kept as it was\./,
    );
    await say(repl, app, ['And the venue?', 'In Portugal.']);
    const after = lastTurnSent(repl.ollama) ?? [];
    // The request before, its answer, then the new message: nothing of the history went missing.
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map((message) => message.content)).toEqual([
      'It was PINEAPPLE.',
      'And the venue?',
    ]);
  });

  it('a resumed session carries the summary', async () => {
    await repl.quit(await repl.newScreen());
    const app = await opened(repl, 'latest');
    expect(app.screen()).toContain('Resumed session ');
    await say(repl, app, ['Anything else?', 'No.']);
    expect(lastTurnSent(repl.ollama)?.[1]?.content).toContain(`${SUMMARY_HEADING}\nThe code word is PINEAPPLE`);
  });
});

describe('automatic compaction (history.compact_at)', () => {
  const repl = useLiveRepl({ config: { mcpServers: {}, ollama: { num_ctx: 2048 }, history: { compact_at: 0.3 } } });

  it('compacts before the turn that would pass the share, and says so', async () => {
    const app = await opened(repl);
    await say(
      repl,
      app,
      [long('The code word is PINEAPPLE.'), 'Noted the code word.'],
      [long('The budget is 4,200 euros.'), 'Noted the budget.'],
    );
    expect(summaryRequests(repl.ollama)).toHaveLength(0);
    repl.ollama.script('The code word is PINEAPPLE.', 'Friday it is.');
    app.send(long('The deadline is Friday.'));
    await app.waitForAnswer('Friday it is.');
    await showsLine(
      app,
      /Compacted 1 earlier turn into a summary \(about [\d,]+ → [\d,]+ tokens\) before this turn, as history\.compact_at asks\./,
    );
    expect(summaryRequests(repl.ollama)).toHaveLength(1);
    const sent = lastTurnSent(repl.ollama) ?? [];
    expect(sent[1]?.content).toBe(`${SUMMARY_HEADING}\nThe code word is PINEAPPLE.`);
    expect(sent.map((message) => message.content)).toContain(long('The budget is 4,200 euros.').trim());
  });
});

describe('/compact, then quit before another turn', () => {
  const repl = useLiveRepl({ config: { mcpServers: {} } });

  it('the saved session already holds the summary', async () => {
    const first = await opened(repl);
    await say(
      repl,
      first,
      [long('The colour is TEAL.'), 'Noted the colour.'],
      [long('The size is XL.'), 'Noted the size.'],
      [long('The shop is in Porto.'), 'Noted the shop.'],
    );
    repl.ollama.script('The colour is TEAL and the size XL.');
    first.send('/compact');
    await showsLine(first, /Compacted \d earlier turns? into a summary/);
    await repl.quit(first);
    const app = await opened(repl, 'latest');
    await say(repl, app, ['Which colour?', 'TEAL.']);
    expect(lastTurnSent(repl.ollama)?.[1]?.content).toBe(`${SUMMARY_HEADING}\nThe colour is TEAL and the size XL.`);
  });
});
