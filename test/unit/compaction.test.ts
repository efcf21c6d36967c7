/**
 * Compaction: which turns are replaced (whole turns only, the latest kept with their tool
 * results), the summary request, the replacement, and a failed or cancelled summary leaving the
 * conversation as it was. `history.compact_at` is read from the config with the other shares.
 */
import { describe, expect, it } from 'vitest';
import {
  Compactor,
  describeCompaction,
  planCompaction,
  SUMMARY_HEADING,
  summaryMessage,
} from '../../src/engine/compaction.js';
import { Conversation } from '../../src/engine/conversation.js';
import type { ChatMessage } from '../../src/vocabulary/types.js';
import { loadConfig } from '../../src/config/load.js';
import { configErrorOf, useConfigDir } from '../helpers/config-dir.js';
import { transcript } from '../../src/engine/summary-request.js';
import { ScriptedLlm } from '../fakes/scripted-llm.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });
const call = (name: string, args: Record<string, unknown>): ChatMessage => ({
  role: 'assistant',
  content: '',
  toolCalls: [{ name, arguments: args }],
});
const tool = (toolName: string, content: string): ChatMessage => ({ role: 'tool', content, toolName });
const textResult = (content: string): ChatMessage => ({ role: 'user', content, toolResult: true });

const LONG = 'x'.repeat(400);
/** Three turns, the last two with tool exchanges (one native, one in text). */
const history: ChatMessage[] = [
  user(`q1 ${LONG}`),
  assistant(`a1 ${LONG}`),
  user('read notes.txt'),
  call('file__read_file', { path: 'notes.txt' }),
  tool('file__read_file', 'the id is 7f3a'),
  assistant('notes.txt says the id is 7f3a'),
  user('and 6*7?'),
  assistant('{"action":"use_tool","server":"calculator","tool":"evaluate","arguments":{"expression":"6*7"}}'),
  textResult('42'),
  assistant('It is 42.'),
];
const contents = (messages: readonly ChatMessage[]): string[] => messages.map((message) => message.content);

describe('which turns a compaction replaces', () => {
  it('cuts only at turn starts: a tool call never leaves its result', () => {
    // Three messages would start the kept part inside the last turn's text call: the cut stays at that turn's start.
    const plan = planCompaction(history, { tokens: Infinity, messages: 3 });
    expect(plan?.replaced).toEqual(history.slice(0, 6));
    expect(plan?.turns).toBe(2);
  });

  it('keeps the latest turns that fit, with the results of their own calls', () => {
    const plan = planCompaction(history, { tokens: Infinity, messages: 8 });
    expect(plan?.replaced).toEqual(history.slice(0, 2));
    const kept = history.slice(plan?.replaced.length);
    expect(kept).toContainEqual(tool('file__read_file', 'the id is 7f3a'));
    expect(kept).toContainEqual(textResult('42'));
  });

  it('keeps the latest turn however long, and replaces at least one', () => {
    expect(planCompaction(history, { tokens: 1, messages: 1 })?.replaced).toEqual(history.slice(0, 6));
    expect(planCompaction(history, { tokens: Infinity, messages: Infinity })?.replaced).toEqual(history.slice(0, 2));
  });

  it('has nothing to replace in one turn, and folds an earlier summary into the next', () => {
    expect(planCompaction(history.slice(6), { tokens: Infinity, messages: Infinity })).toBeUndefined();
    const summarised = [summaryMessage('earlier'), ...history.slice(2)];
    expect(planCompaction(summarised, { tokens: Infinity, messages: 4 })?.replaced).toEqual(summarised.slice(0, 5));
  });
});

function compactorOver(llm: ScriptedLlm, messages: ChatMessage[], compactAt?: number) {
  const conversation = new Conversation(10);
  conversation.add(...messages);
  const compactor = new Compactor({
    llm,
    conversation,
    context: { tokens: 8192 },
    maxMessages: 4,
    ...(compactAt ? { compactAt } : {}),
  });
  return { conversation, compactor };
}

describe('a compaction', () => {
  it('asks the model, without tools, for a summary of the replaced turns and puts it in their place', async () => {
    const llm = new ScriptedLlm([
      { thinking: 'hmm', content: '<think>private</think>The user asked q1; notes.txt holds id 7f3a.' },
    ]);
    const { conversation, compactor } = compactorOver(llm, history);
    const outcome = await compactor.compact();
    expect(outcome).toMatchObject({ type: 'compacted', turns: 2 });
    const [request] = llm.requests;
    expect(request?.tools).toBeUndefined();
    expect(request?.think).toBeUndefined();
    expect(request?.messages[0]?.content).toContain('Write a concise summary of the conversation so far');
    const sent = request?.messages[1]?.content ?? '';
    expect(sent).toContain('User: read notes.txt');
    expect(sent).toContain('Assistant called file__read_file({"path":"notes.txt"})');
    expect(sent).toContain('Tool result (file__read_file): the id is 7f3a');
    expect(sent).not.toContain('6*7');
    const [summary, ...rest] = conversation.all();
    expect(summary).toEqual({
      role: 'system',
      content: `${SUMMARY_HEADING}\nThe user asked q1; notes.txt holds id 7f3a.`,
    });
    expect(rest).toEqual(history.slice(6));
  });

  it('goes with every window after the system prompt, and is never forgotten', async () => {
    const { conversation, compactor } = compactorOver(new ScriptedLlm(['short summary']), history);
    await compactor.compact();
    expect(contents(conversation.window('system', 10_000)).slice(0, 3)).toEqual([
      'system',
      `${SUMMARY_HEADING}\nshort summary`,
      'and 6*7?',
    ]);
    for (let turn = 0; turn < 8; turn++) conversation.add(user(`q${turn}`), assistant(`a${turn}`));
    conversation.forgetUnreachable();
    expect(conversation.all()[0]?.content).toBe(`${SUMMARY_HEADING}\nshort summary`);
    // Twice the window of 10 is remembered, so what leaves the window is still there to summarise.
    expect(conversation.all()).toHaveLength(21);
  });

  it.each([
    [
      'fails',
      { error: new Error('Ollama is not reachable at http://127.0.0.1:1\nStart it with: ollama serve') },
      'failed',
    ],
    ['is empty', '<think>only thinking</think>', 'failed'],
    ['is no shorter than the turns', `a summary ${'y'.repeat(2_000)}`, 'nothing'],
  ] as const)('leaves the conversation exactly as it was when the summary %s', async (_, reply, type) => {
    const { conversation, compactor } = compactorOver(new ScriptedLlm([reply]), history);
    const outcome = await compactor.compact();
    expect(outcome.type).toBe(type);
    if (outcome.type === 'failed') expect(outcome.reason).not.toContain('\n');
    expect(conversation.all()).toEqual(history);
  });

  it('asks a model that can think not to: reasoning is never part of the summary', async () => {
    const llm = new ScriptedLlm(['short summary'], { tools: true, thinking: true });
    await compactorOver(llm, history).compactor.compact();
    expect(llm.requests[0]?.think).toBe(false);
  });

  it('leaves it as it was when cancelled while the summary streams', async () => {
    const { conversation, compactor } = compactorOver(new ScriptedLlm([{ content: 'The user', hang: true }]), history);
    const controller = new AbortController();
    const outcome = compactor.compact(controller.signal);
    controller.abort();
    expect(await outcome).toEqual({ type: 'cancelled' });
    expect(conversation.all()).toEqual(history);
  });

  it('before a turn: when the next request would not fit, or the history would pass history.compact_at', async () => {
    const unbounded = new Conversation();
    unbounded.add(...history);
    const fits = new Compactor({ llm: new ScriptedLlm([]), conversation: unbounded, context: { tokens: 8192 } });
    expect(await fits.beforeTurn([user('next')])).toBeUndefined();
    const tight = new Conversation();
    tight.add(...history);
    // About 330 tokens of history, in a context whose prompt share is 150.
    const small = new Compactor({
      llm: new ScriptedLlm(['short summary']),
      conversation: tight,
      context: { tokens: 200 },
    });
    expect(await small.beforeTurn([user('next')])).toMatchObject({ outcome: { type: 'compacted' }, cause: 'fit' });
    const bounded = compactorOver(new ScriptedLlm(['short summary']), history);
    expect(await bounded.compactor.beforeTurn([user('next')])).toMatchObject({ cause: 'fit' });
    const low = compactorOver(new ScriptedLlm(['short summary']), history.slice(2), 0.01);
    expect(await low.compactor.beforeTurn([user('next')])).toMatchObject({ cause: 'compact-at' });
    const high = compactorOver(new ScriptedLlm([]), history.slice(2), 0.9);
    expect(await high.compactor.beforeTurn([user('next')])).toBeUndefined();
  });

  it('says why it compacted, and that /compact does it by hand', () => {
    const outcome = { type: 'compacted', turns: 2, before: 1_200, after: 80 } as const;
    expect(describeCompaction(outcome, 'fit')).toBe(
      "Compacted 2 earlier turns into a summary (about 1,200 → 80 tokens) so that the conversation fits the model's context (/compact does this by hand).",
    );
    expect(describeCompaction(outcome)).toBe('Compacted 2 earlier turns into a summary (about 1,200 → 80 tokens).');
  });
});

describe('the transcript a summary is written from', () => {
  it('caps each message and leaves out the oldest turns to fit, keeping the earlier summary', () => {
    const turns = [summaryMessage('earlier'), user('y'.repeat(5_000)), assistant('a1'), user('q2'), assistant('a2')];
    const whole = transcript(turns, Infinity);
    expect(whole).toContain(`User: ${'y'.repeat(3_000)} … (cut)`);
    const cut = transcript(turns, 50);
    expect(cut.split('\n\n')).toEqual([
      `${SUMMARY_HEADING}\nearlier`,
      '(The oldest part of the conversation is left out here.)',
      'Assistant: a1',
      'User: q2',
      'Assistant: a2',
    ]);
  });
});

describe('config: history.compact_at', () => {
  const { write, options } = useConfigDir();
  const load = (history: unknown) =>
    loadConfig(options({ configPath: write('proj/mcp_config.json', { mcpServers: {}, history }) }));

  it('is off unless set; takes a fraction or a percentage', () => {
    expect(load({}).history).toEqual({});
    expect(load({ compact_at: 0.8 }).history.compactAt).toBe(0.8);
    expect(load({ compact_at: '75%' }).history.compactAt).toBeCloseTo(0.75);
  });

  it.each([
    [0, 'expected a number > 0'],
    [1, 'expected a number < 1'],
    ['100%', 'a percentage above 0 and below 100'],
    ['most', 'a percentage such as "80%"'],
  ])('refuses %j, naming the field', (compactAt, expected) => {
    const message = configErrorOf(() => load({ compact_at: compactAt })).message;
    expect(message).toContain('history.compact_at');
    expect(message).toContain(expected);
  });
});
