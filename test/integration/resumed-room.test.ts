/**
 * A resumed session's first request: before any request the history's room is only the prompt's
 * share of the context, while the request also carries the system prompt and the tools. A history
 * that fits the first but not the second is made room for before it is sent (old tool results
 * shortened, then a summary), with the dim line, never cut from the front unsaid. The session as
 * the program builds it, the real Ollama client, the fake Ollama.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ChatSession } from '../../src/session/chat-session.js';
import { createOllamaClient } from '../../src/ollama/client.js';
import { SUMMARY_HEADING } from '../../src/engine/compaction.js';
import { SESSION_FORMAT } from '../../src/state/session-file.js';
import { silentLogger } from '../../src/shared/log.js';
import type { ChatMessage } from '../../src/vocabulary/types.js';
import { type FakeChatRequest, type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.js';
import { FakeToolHost } from '../fakes/fake-tool-host.js';
import { testRuntime } from '../helpers/test-session.js';
import { collect, ofType, textCall } from '../helpers/turns.js';

const NUM_CTX = 2048;
const FIRST = 'The code word is PINEAPPLE.';
/** About 1,300 tokens: with the rest, under the prompt's share of 2,048 (1,536), over what the prompt and tools leave. */
const NOTES = `notes: ${'the trip is booked for the third week of May. '.repeat(112)}`;

const resumed: ChatMessage[] = [
  { role: 'user', content: FIRST },
  { role: 'assistant', content: 'Noted the code word.' },
  { role: 'user', content: 'Read notes.txt' },
  { role: 'assistant', content: textCall('file', 'read_file', { path: 'notes.txt' }) },
  { role: 'user', content: NOTES, toolResult: true },
  { role: 'assistant', content: 'The trip is in the third week of May.' },
];

const isSummaryRequest = (request: FakeChatRequest): boolean =>
  request.messages[0]?.content.includes('Write a concise summary of the conversation so far') === true;

let ollama: FakeOllama;
afterEach(() => ollama.close());

async function resumedSession(messages = resumed): Promise<ChatSession> {
  ollama = await startFakeOllama({ models: [{ name: 'llama3.2', capabilities: ['completion'] }] });
  const runtime = testRuntime({ baseUrl: ollama.url, model: 'llama3.2', numCtx: NUM_CTX }, {});
  const session = new ChatSession(runtime, new FakeToolHost(), createOllamaClient(runtime.config.ollama, silentLogger));
  const now = new Date().toISOString();
  session.restoreConversation({
    format: SESSION_FORMAT,
    name: 'trip',
    model: 'llama3.2',
    createdAt: now,
    updatedAt: now,
    turns: 2,
    title: FIRST,
    messages,
    screen: [],
  });
  return session;
}

describe("a resumed session's first request", () => {
  it('shortens the old tool result the system prompt and tools leave no room for, and says so', async () => {
    const session = await resumedSession();
    ollama.script('PINEAPPLE.');
    const events = await collect(session.runTurn('What is the code word?'));
    expect(ofType(events, 'notice').map((notice) => notice.text)).toEqual([
      expect.stringMatching(
        /^Shortened 1 earlier tool result to its start \(about [\d,]+ → [\d,]+ tokens\) so that the conversation fits the model's context\.$/,
      ),
    ]);
    expect(ofType(events, 'final')).toMatchObject([{ answer: 'PINEAPPLE.' }]);
    expect(ollama.chatRequests.filter(isSummaryRequest)).toHaveLength(0);
    const sent = (ollama.chatRequests.at(-1)?.messages ?? []).map((message) => message.content);
    // The first turn is still there, and the notes in short form after their call.
    expect(sent.slice(1, 3)).toEqual([FIRST, 'Noted the code word.']);
    expect(sent[5]).toContain('[… shortened:');
    expect(sent.at(-1)).toBe('What is the code word?');
  });

  it('summarises the earlier turns when there is no tool result to shorten, and says so', async () => {
    const session = await resumedSession([
      { role: 'user', content: FIRST },
      { role: 'assistant', content: 'Noted the code word.' },
      { role: 'user', content: `Plan the trip: ${NOTES}` },
      { role: 'assistant', content: 'Planned.' },
    ]);
    ollama.script('The code word is PINEAPPLE; the trip is in May.', 'PINEAPPLE.');
    const events = await collect(session.runTurn('What is the code word?'));
    expect(ofType(events, 'notice').map((notice) => notice.text)).toEqual([
      expect.stringMatching(
        /^Compacted 2 earlier turns into a summary \(about [\d,]+ → [\d,]+ tokens\) so that the conversation fits the model's context \(\/compact does this by hand\)\.$/,
      ),
    ]);
    expect(ofType(events, 'final')).toMatchObject([{ answer: 'PINEAPPLE.' }]);
    const [summaryRequest, ...more] = ollama.chatRequests.filter(isSummaryRequest);
    expect(more).toHaveLength(0);
    expect(summaryRequest?.messages[1]?.content).toContain(`User: ${FIRST}`);
    const sent = (ollama.chatRequests.at(-1)?.messages ?? []).map((message) => message.content);
    expect(sent.slice(1)).toEqual([
      `${SUMMARY_HEADING}\nThe code word is PINEAPPLE; the trip is in May.`,
      'What is the code word?',
    ]);
  });
});
