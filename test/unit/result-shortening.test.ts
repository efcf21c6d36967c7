/**
 * Making room before a summary: the oldest tool results of earlier turns are shortened to their
 * start, with a marker, until the history fits; each stays right after its call, the latest turn's
 * results are never cut, and only when shortening is not enough is a summary written.
 */
import { describe, expect, it } from 'vitest';
import { Compactor, describeRoomMade } from '../../src/engine/compaction.js';
import { Conversation, estimateTokens } from '../../src/engine/conversation.js';
import { KEPT_CHARS, shortenResults, shortenedText } from '../../src/engine/result-shortening.js';
import type { ChatMessage } from '../../src/vocabulary/types.js';
import { ScriptedLlm } from '../fakes/scripted-llm.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });
const call = (path: string): ChatMessage => ({
  role: 'assistant',
  content: '',
  toolCalls: [{ name: 'file__read_file', arguments: { path } }],
});
const tool = (content: string): ChatMessage => ({ role: 'tool', content, toolName: 'file__read_file' });
const textResult = (content: string): ChatMessage => ({ role: 'user', content, toolResult: true });

/** A file's text that says where it starts: what a shortened result keeps. */
const fileText = (name: string, chars: number): string => `${name} begins here. ${'z'.repeat(chars)}`;

/** Three turns: two with long results (native, then text), and a latest one with its own long result. */
const history: ChatMessage[] = [
  user('read a.txt'),
  call('a.txt'),
  tool(fileText('a.txt', 8_000)),
  assistant('a.txt holds zs.'),
  user('and b.txt?'),
  assistant('{"action":"use_tool","server":"file","tool":"read_file","arguments":{"path":"b.txt"}}'),
  textResult(fileText('b.txt', 8_000)),
  assistant('b.txt holds zs too.'),
  user('and c.txt?'),
  call('c.txt'),
  tool(fileText('c.txt', 8_000)),
];

describe('shortening tool results', () => {
  it('cuts the oldest result first, keeps its start and says how much was left out, and stops once it fits', () => {
    const whole = estimateTokens(history);
    const shortening = shortenResults(history, (candidate) => estimateTokens(candidate) < whole - 1_500);
    expect(shortening?.results).toBe(1);
    const shortened = shortening?.history ?? [];
    const original = history[2]?.content ?? '';
    expect(shortened[2]).toEqual(tool(shortenedText(original)));
    expect(shortened[2]?.content).toBe(
      `${original.slice(0, KEPT_CHARS)}\n[… shortened: ${original.length - KEPT_CHARS} of ${original.length} characters left out to fit the model's context]`,
    );
    expect(shortened[2]?.content.startsWith('a.txt begins here.')).toBe(true);
    // The second result was not needed to fit: it stays whole.
    expect(shortened[6]).toBe(history[6]);
    expect(shortening?.after).toBeLessThan(shortening?.before ?? 0);
  });

  it('never splits a call from its result, and never cuts the latest turn’s results', () => {
    const shortening = shortenResults(history, () => false);
    const shortened = shortening?.history ?? [];
    expect(shortening?.results).toBe(2);
    expect(shortened.map((message) => message.role)).toEqual(history.map((message) => message.role));
    expect(shortened[1]).toBe(history[1]);
    expect(shortened[6]).toMatchObject({ role: 'user', toolResult: true });
    expect(shortened[6]?.content).toContain('[… shortened:');
    expect(shortened[10]).toBe(history[10]);
  });

  it('leaves short results alone: nothing to shorten is undefined', () => {
    const short = [user('q'), call('s.txt'), tool('tiny'), assistant('ok'), user('next')];
    expect(shortenResults(short, () => false)).toBeUndefined();
  });
});

function compactorAt(contextTokens: number, llm: ScriptedLlm) {
  const conversation = new Conversation();
  conversation.add(...history.slice(0, 8));
  return { conversation, llm, compactor: new Compactor({ llm, conversation, context: { tokens: contextTokens } }) };
}

describe('before a turn that would not fit', () => {
  it('shortens the oldest tool results first, and writes no summary when that is enough', async () => {
    // About 4,100 tokens of history: a prompt share of 3,000 holds it once one result is cut.
    const { conversation, llm, compactor } = compactorAt(4_000, new ScriptedLlm([]));
    const made = await compactor.beforeTurn([user('and c.txt?')]);
    expect(made).toMatchObject({ cause: 'fit', shortened: { results: 1 } });
    expect(made?.outcome).toBeUndefined();
    expect(llm.requests).toHaveLength(0);
    const kept = conversation.all();
    expect(kept).toHaveLength(8);
    expect(kept[2]?.content).toContain('[… shortened:');
    expect(kept[6]).toBe(history[6]);
    expect(made && describeRoomMade(made)).toMatch(
      /^Shortened 1 earlier tool result to its start \(about [\d,]+ → [\d,]+ tokens\) so that the conversation fits the model's context\.$/,
    );
  });

  it('summarises the oldest turns when shortening every earlier result is not enough, and says both', async () => {
    const { conversation, compactor } = compactorAt(300, new ScriptedLlm(['a.txt and b.txt hold zs.']));
    const made = await compactor.beforeTurn([user('and c.txt?')]);
    expect(made).toMatchObject({ cause: 'fit', shortened: { results: 2 }, outcome: { type: 'compacted' } });
    expect(conversation.all()[0]?.content).toContain('a.txt and b.txt hold zs.');
    expect(made && describeRoomMade(made)).toMatch(
      /^Shortened 2 earlier tool results to their start \(about [\d,]+ → [\d,]+ tokens\)\. Compacted \d earlier turns? into a summary/,
    );
  });
});
