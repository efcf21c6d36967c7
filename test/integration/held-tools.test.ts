/**
 * The host holding back tools over the real wire (a stdio child whose tools changed since they
 * were pinned, or that adds one mid-session), vetted by the session's pin gate with a question
 * book as the REPL has it: a tool held back is not offered, a call to it is refused before it
 * reaches the server and asks no approval, and the user's yes offers it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QuestionBook } from '../../src/engine/question-book.js';
import { withheldRefusal } from '../../src/mcp/held-tools.js';
import { McpHost } from '../../src/mcp/host.js';
import { ToolPinGate } from '../../src/session/tool-pin-gate.js';
import { silentLogger } from '../../src/shared/log.js';
import { ToolPinStore } from '../../src/state/tool-pin-store.js';
import type { ServerQuestion } from '../../src/vocabulary/questions.js';
import { stdioServer } from '../helpers/server-configs.js';
import { dictionary, LOOKUP, LOOKUP_REWRITTEN, WIPE, type Dictionary } from '../helpers/shifting-server.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

let dict: Dictionary;
let host: McpHost | undefined;
beforeEach(() => {
  dict = dictionary();
});
afterEach(async () => {
  await host?.close();
  dict.remove();
});

/** The host over the fixture, pinned as `pinned`, with a front end that records the questions asked. */
async function start(pinned: (typeof LOOKUP)[]) {
  const config = stdioServer('dict', dict.entry.args);
  const store = new ToolPinStore(dict.pinsDir);
  store.check(config, pinned);
  const questions = new QuestionBook();
  const asked: ServerQuestion[] = [];
  questions.subscribe((change) => change.type === 'asked' && asked.push(change.question));
  const statuses: number[] = [];
  const pins = new ToolPinGate({ store, questions, acceptForRun: false, notify: () => undefined, log: silentLogger });
  host = new McpHost([config], { log: silentLogger, vetTools: pins, onStatus: (s) => statuses.push(s.toolCount) });
  await host.start();
  return { host, questions, asked, statuses };
}

const names = (host: McpHost): string[] => host.listTools().map((tool) => tool.name);

describe('tools held back until the user accepts them', () => {
  it('a rewritten tool is not offered nor run, asks no approval, and is offered once the user says yes', async () => {
    dict.offer({ tools: [LOOKUP_REWRITTEN] });
    const { host, questions, asked, statuses } = await start([LOOKUP]);
    expect(names(host)).toEqual([]);
    expect(host.statuses()[0]?.toolCount).toBe(0);
    expect(host.heldBackTools()).toEqual({ dict: ['lookup'] });
    const call = { server: 'dict', tool: 'lookup', arguments: { word: 'x' } };
    expect(host.requiresApproval(call)).toBe(false);
    expect(await host.callTool(call)).toMatchObject({ isError: true, forModel: withheldRefusal('dict', 'lookup') });
    expect(dict.calls()).toEqual([]);

    const [question] = asked;
    expect(question?.kind).toBe('tool-changes');
    questions.answer(question?.id ?? '', 'once');
    await vi.waitFor(() => expect(names(host)).toEqual(['lookup']), CONDITION_WAIT);
    expect(host.listTools()[0]?.description).toBe(LOOKUP_REWRITTEN.description);
    expect(statuses.at(-1)).toBe(1);
    expect(host.heldBackTools()).toEqual({});
    expect(host.requiresApproval(call)).toBe(true);
    expect((await host.callTool(call)).forModel).toBe('ran lookup {"word":"x"}');
  });

  it('a tool added mid-session (list_changed) is held back while the others stay offered', async () => {
    const status = { name: 'status', description: 'How it is.', inputSchema: { type: 'object' } };
    dict.offer({ tools: [status], addOnCall: { when: 'status', tool: WIPE } });
    const { host, asked } = await start([status]);
    expect(names(host)).toEqual(['status']);
    await host.callTool({ server: 'dict', tool: 'status', arguments: {} });
    await vi.waitFor(() => expect(asked.map((question) => question.kind)).toEqual(['tool-changes']), CONDITION_WAIT);
    expect(names(host)).toEqual(['status']);
    expect(host.heldBackTools()).toEqual({ dict: ['wipe'] });
    const refused = await host.callTool({ server: 'dict', tool: 'wipe', arguments: {} });
    expect(refused.forModel).toBe(withheldRefusal('dict', 'wipe'));
    expect(dict.calls()).toEqual(['status']);
  });
});
