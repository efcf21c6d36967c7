/**
 * What the model sees is what mcp-chat decided it sees: every chat request asks Ollama for
 * `truncate: false`, so a prompt over the context is refused, not silently cut from the front; on
 * that refusal the conversation is compacted and the request tried once more, and when nothing
 * can be compacted the turn ends with a clear error and what to do. The session as the program
 * builds it, the real Ollama client, the fake Ollama playing Ollama's refusal.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ChatSession } from '../../src/session/chat-session.js';
import { createOllamaClient } from '../../src/ollama/client.js';
import { silentLogger } from '../../src/shared/log.js';
import type { ChatMessage, ToolSpec, TurnEvent } from '../../src/vocabulary/types.js';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.js';
import { FakeToolHost } from '../fakes/fake-tool-host.js';
import { testRuntime } from '../helpers/test-session.js';
import { textCall } from '../helpers/turns.js';

/** No tools: the prompt is the conversation and a short system prompt. */
class NoToolsHost extends FakeToolHost {
  override listTools(): ToolSpec[] {
    return [];
  }
}

/**
 * Text that counts as about 1 token in 4 characters to mcp-chat's estimate, but twice that in
 * the JSON the fake measures (each quote is escaped): a prompt mcp-chat thinks fits, Ollama refuses.
 */
const quoted = (chars: number): string => '"'.repeat(chars);

let ollama: FakeOllama;
afterEach(() => ollama.close());

async function sessionOver(numCtx: number): Promise<ChatSession> {
  ollama = await startFakeOllama({
    models: [{ name: 'llama3.2', capabilities: ['completion'] }],
    refuseOverContext: true,
  });
  const runtime = testRuntime({ baseUrl: ollama.url, model: 'llama3.2', numCtx }, {});
  const llm = createOllamaClient(runtime.config.ollama, silentLogger);
  return new ChatSession(runtime, new NoToolsHost(), llm);
}

async function turn(session: ChatSession, text: string): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const event of session.runTurn(text)) events.push(event);
  return events;
}

describe('a prompt longer than the context Ollama has', () => {
  it('is refused, not cut: the conversation is compacted and the request sent once more', async () => {
    const session = await sessionOver(1024);
    // The first prompt is counted short (as a cached one is): nothing tells mcp-chat it ran over but the refusal.
    ollama.script({ text: 'Noted one.', promptEvalCount: 10 }, 'The user sent a long run of quotes.', 'Noted two.');
    await turn(session, `one ${quoted(1200)}`);
    const events = await turn(session, `two ${quoted(1200)}`);
    expect(events.at(-1)).toMatchObject({ type: 'final', answer: 'Noted two.' });
    expect(events).toContainEqual({
      type: 'notice',
      text: expect.stringMatching(
        /^Compacted 1 earlier turn into a summary \(about [\d,]+ → [\d,]+ tokens\) because Ollama refused the request as longer than the model's context \(\/compact does this by hand\)\.$/,
      ),
    });
    const requests = ollama.chatRequests;
    expect(requests).toHaveLength(4);
    expect(requests.every((request) => request.truncate === false)).toBe(true);
    // The retry carries the summary in place of the first turn, and the whole new message.
    const retry = requests[3]?.messages ?? [];
    expect(retry[1]?.content).toContain('The user sent a long run of quotes.');
    expect(JSON.stringify(retry)).not.toContain('one "');
    expect(retry.at(-1)?.content).toBe(`two ${quoted(1200)}`);
  });

  it('shortens old tool results first, as far as Ollama counted, and writes no summary when that is enough', async () => {
    const session = await sessionOver(2048);
    // The estimate puts this history inside the room; Ollama counts the quotes twice over and refuses it.
    const read = (file: string): ChatMessage[] => [
      { role: 'user', content: `Read ${file}` },
      { role: 'assistant', content: textCall('file', 'read_file', { path: file }) },
      { role: 'user', content: `${file} ${quoted(2400)}`, toolResult: true },
      { role: 'assistant', content: `${file} is quotes.` },
    ];
    session.chatbot.conversation.add(
      { role: 'user', content: 'The code word is PINEAPPLE.' },
      { role: 'assistant', content: 'Noted.' },
      ...read('a.txt'),
      ...read('b.txt'),
    );
    ollama.script('PINEAPPLE.');
    const events = await turn(session, 'What is the code word?');
    expect(events.at(-1)).toMatchObject({ type: 'final', answer: 'PINEAPPLE.' });
    expect(events).toContainEqual({
      type: 'notice',
      text: expect.stringMatching(
        /^Shortened 2 earlier tool results to their start \(about [\d,]+ → [\d,]+ tokens\) because Ollama refused the request as longer than the model's context\.$/,
      ),
    });
    // The refused request and its retry: no summary was asked for.
    const [, retry, ...more] = ollama.chatRequests;
    expect(more).toHaveLength(0);
    const sent = (retry?.messages ?? []).map((message) => message.content);
    expect(sent[1]).toBe('The code word is PINEAPPLE.');
    expect(sent.filter((content) => content.includes('[… shortened:'))).toHaveLength(2);
    expect(sent.at(-1)).toBe('What is the code word?');
    // Judged by Ollama's count of the refused prompt, the retry leaves the reply its quarter as Ollama counts too.
    expect(JSON.stringify(retry?.messages).length / 4).toBeLessThan(0.75 * 2048);
  });

  it('with nothing to compact, ends the turn with a clear error and what to do', async () => {
    const session = await sessionOver(1024);
    const events = await turn(session, `only ${quoted(2000)}`);
    expect(events.at(-1)).toEqual({
      type: 'error',
      kind: 'context-overflow',
      message: expect.stringMatching(
        /^the conversation is too long for the model's context: Ollama at \S+ refused it \(about \d+ tokens, the context holds 1024\)$/,
      ),
      hint: expect.stringContaining('/compact shortens it'),
    });
    expect(ollama.chatRequests).toHaveLength(1);
    // The failed turn leaves the conversation as it was.
    expect(session.conversationMessages()).toEqual([]);
  });
});
