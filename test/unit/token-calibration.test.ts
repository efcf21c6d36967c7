/**
 * The token estimate corrected by Ollama's own count of each prompt (`prompt_eval_count`): a
 * history that the estimate says fits, but Ollama counts as more, is compacted before the next
 * turn rather than sent to be cut; a count below the estimate (a cached prompt) changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { TokenCalibration } from '../../src/engine/token-calibration.js';
import { ChatSession } from '../../src/session/chat-session.js';
import type { ToolSpec, TurnEvent } from '../../src/vocabulary/types.js';
import { FakeToolHost } from '../fakes/fake-tool-host.js';
import { ScriptedLlm, type ScriptedReply } from '../fakes/scripted-llm.js';
import { testRuntime } from '../helpers/test-session.js';

class NoToolsHost extends FakeToolHost {
  override listTools(): ToolSpec[] {
    return [];
  }
}

async function twoTurns(first: ScriptedReply): Promise<{ llm: ScriptedLlm; second: TurnEvent[] }> {
  const llm = new ScriptedLlm([first, 'The user sent a long message.', 'Two.'], { tools: false, thinking: false });
  const session = new ChatSession(testRuntime({ numCtx: 1024 }, {}), new NoToolsHost(), llm);
  const run = async (text: string): Promise<TurnEvent[]> => {
    const events: TurnEvent[] = [];
    for await (const event of session.runTurn(text)) events.push(event);
    return events;
  };
  await run(`one ${'x'.repeat(1200)}`);
  return { llm, second: await run('two') };
}

const notices = (events: TurnEvent[]): string[] =>
  events.flatMap((event) => (event.type === 'notice' ? [event.text] : []));

describe('the token estimate, corrected by what Ollama counts', () => {
  it('only ever grows, and within bounds', () => {
    const calibration = new TokenCalibration();
    expect(calibration.estimatedContext(1000)).toBe(1000);
    calibration.note(100, 50);
    calibration.note(100, undefined);
    expect(calibration.estimatedContext(1000)).toBe(1000);
    calibration.note(100, 200);
    expect(calibration.estimatedContext(1000)).toBe(500);
    calibration.note(100, 10_000);
    expect(calibration.estimatedContext(1000)).toBe(250);
  });

  it('compacts before the next turn when Ollama counted the history as more than its room', async () => {
    const { llm, second } = await twoTurns({ content: 'One.', promptEvalCount: 1000 });
    expect(notices(second)).toEqual([
      expect.stringMatching(/^Compacted 1 earlier turn into a summary .* fits the model's context/),
    ]);
    expect(llm.requests).toHaveLength(3);
    expect(llm.requests[2]?.messages.map((message) => message.content).join('\n')).not.toContain('xxxx');
  });

  it('sends the whole history when Ollama counted what the estimate said', async () => {
    const { llm, second } = await twoTurns({ content: 'One.', promptEvalCount: 320 });
    expect(notices(second)).toEqual([]);
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1]?.messages.map((message) => message.content).join('\n')).toContain('xxxx');
  });
});
