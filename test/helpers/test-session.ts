/**
 * Chat sessions for tests, built where the program builds them (the session layer), over
 * in-process fakes: a runtime with a test config, and approval questions answered as a
 * front end would answer them.
 */
import type { ApprovalDecision, QuestionId, TurnEvent } from '../../src/vocabulary/types.js';
import type { AppConfig } from '../../src/config/types.js';
import type { Runtime } from '../../src/session/runtime.js';
import { silentLogger } from '../../src/shared/log.js';

export function testRuntime(
  overrides: Partial<AppConfig['ollama']> = {},
  history: AppConfig['history'] = { maxMessages: 10 },
): Runtime {
  const config: AppConfig = {
    source: '/test/mcp_config.json',
    ollama: {
      baseUrl: 'http://127.0.0.1:1',
      model: 'scripted-model',
      timeoutMs: 5_000,
      numCtx: 8192,
      toolMode: 'json',
      options: {},
      ...overrides,
    },
    servers: [],
    roots: [],
    disabled: [{ name: 'github', reason: 'missing environment variable GITHUB_TOKEN' }],
    history,
    tools: { maxParallel: 4, budgetShare: 0.25 },
    logging: { level: 'info', file: '/dev/null' },
  };
  return { config, log: silentLogger, debug: false };
}

/** What answers a question by its id: a session, or a chatbot's question book. */
export interface Answerer {
  answer(id: QuestionId, decision: ApprovalDecision): boolean;
}

/** A turn's events with every approval question answered `decision` by its id, as `ask` answers from --yes. */
export async function* answering(
  answerer: Answerer,
  events: AsyncIterable<TurnEvent>,
  decision: ApprovalDecision,
): AsyncGenerator<TurnEvent> {
  for await (const event of events) {
    if (event.type === 'approval-request' && !answerer.answer(event.id, decision))
      throw new Error(`no question ${event.id} to answer`);
    yield event;
  }
}
