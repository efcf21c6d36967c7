/**
 * What a server's request gets, by the server's policy and the user's answers: the gate with a
 * scripted model (the real wire is in test/e2e/server-requests-cli.test.ts and the REPL's).
 */
import { describe, expect, it, vi } from 'vitest';
import type { FormRequest, SamplingRequest } from '../../src/vocabulary/server-requests.js';
import type { LlmChunk, LlmRequest } from '../../src/vocabulary/types.js';
import type { StdioServerConfig } from '../../src/config/types.js';
import { ServerRequestGate } from '../../src/session/server-request-gate.js';
import { QuestionBook } from '../../src/engine/question-book.js';
import type { Decision, ServerQuestion } from '../../src/vocabulary/questions.js';
import type { SamplerModel } from '../../src/session/sampler.js';
import { createLogger } from '../../src/shared/log.js';
import { stdioServer } from '../helpers/server-configs.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

/** A model that answers every request with `reply` and records what it was asked. */
function scriptedModel(pulled: string[] = ['llama3.2:latest']) {
  const requests: LlmRequest[] = [];
  const model: SamplerModel = {
    model: 'llama3.2',
    capabilities: async () => ({ tools: false, vision: false, thinking: false, embedding: false }),
    listModels: async () => pulled,
    async *chat(request: LlmRequest): AsyncGenerator<LlmChunk> {
      requests.push(request);
      yield { type: 'content', text: 'a reply' };
      yield { type: 'done', doneReason: 'length' };
    },
  };
  return { model, requests };
}

const request = (server = 'lab', hints: string[] = []): SamplingRequest => ({
  server,
  messages: [{ role: 'user', text: 'hi', images: [] }],
  maxTokens: 5,
  modelHints: hints,
});

function gate(entry: Partial<StdioServerConfig>, questions?: QuestionBook, yes = false) {
  const { model, requests } = scriptedModel();
  const notices: string[] = [];
  const gate = new ServerRequestGate({
    servers: [stdioServer('lab', [], entry)],
    model: () => model,
    log: createLogger({ level: 'silent', file: null }),
    ...(questions ? { questions } : {}),
    yes,
    notify: (line) => notices.push(line),
    openUrl: async () => undefined,
  });
  return { gate, requests, notices };
}

const signal = new AbortController().signal;

/** A front end at the question book: it answers each question as it is asked, by its id, and notes its kind. */
function answering(approval: 'once' | 'always' | 'deny', form: Decision = { action: 'decline' }) {
  const asked: string[] = [];
  const questions = new QuestionBook();
  const decisionFor = (question: ServerQuestion): Decision => {
    switch (question.kind) {
      case 'sampling':
        return approval;
      case 'form':
        return form;
      case 'url':
        return 'once';
      case 'tool-changes':
        return 'deny';
    }
  };
  questions.subscribe((change) => {
    if (change.type !== 'asked') return;
    asked.push(change.question.kind);
    expect(questions.answer(change.question.id, decisionFor(change.question))).toBe(true);
  });
  return { questions, asked };
}

describe('ServerRequestGate', () => {
  it('"always" asks once per server for the session, and the completion goes back with nothing more asked', async () => {
    const { questions, asked } = answering('always');
    const { gate: g, requests } = gate({}, questions);
    await g.sample(request(), signal);
    const result = await g.sample(request(), signal);
    expect(asked).toEqual(['sampling']);
    expect(result).toEqual({ model: 'llama3.2', text: 'a reply', stopReason: 'maxTokens' });
    expect(requests[0]?.options).toEqual({ num_predict: 5 });
  });

  it('sampling the user denies is declined and never reaches the model; "allow" does not ask', async () => {
    const { questions, asked } = answering('deny');
    const denied = gate({}, questions);
    await expect(denied.gate.sample(request(), signal)).rejects.toThrow('the user declined the sampling request');
    expect(denied.requests).toEqual([]);
    const allowed = answering('once');
    await gate({ sampling: 'allow' }, allowed.questions).gate.sample(request(), signal);
    expect(asked).toEqual(['sampling']);
    expect(allowed.asked).toEqual([]);
  });

  it('a model hint picks a pulled model it is part of; no match keeps the chat’s', async () => {
    const { model, requests } = scriptedModel(['llama3.2:latest', 'qwen3:8b']);
    const g = new ServerRequestGate({
      servers: [stdioServer('lab', [], { sampling: 'allow' })],
      model: () => model,
      log: createLogger({ level: 'silent', file: null }),
      notify: () => undefined,
      openUrl: async () => undefined,
    });
    expect((await g.sample(request('lab', ['claude', 'qwen3']), signal)).model).toBe('qwen3:8b');
    expect(requests[0]?.model).toBe('qwen3:8b');
    expect((await g.sample(request('lab', ['gpt-5']), signal)).model).toBe('llama3.2');
  });

  it('a form with every field defaulted is accepted by a script only under "allow"', async () => {
    const form: FormRequest = {
      server: 'lab',
      message: 'Confirm',
      fields: [
        { name: 'name', kind: 'string', required: true, default: 'Ana' },
        { name: 'count', kind: 'integer', required: false, default: 3 },
      ],
    };
    expect(await gate({ elicitation: 'allow' }).gate.fillForm(form, signal)).toEqual({
      action: 'accept',
      content: { name: 'Ana', count: 3 },
    });
    const asked = gate({});
    expect(await asked.gate.fillForm(form, signal)).toEqual({ action: 'decline' });
    expect(asked.notices).toEqual([
      'lab asked for information (a form); declined: its policy is "ask" and no one is here to answer.',
    ]);
    expect(await gate({ elicitation: 'deny' }).gate.fillForm(form, signal)).toEqual({ action: 'decline' });
  });

  it('records what became of each request: accepted with its model, declined, cancelled', async () => {
    const { model } = scriptedModel();
    const records: unknown[] = [];
    const g = new ServerRequestGate({
      servers: [stdioServer('lab', [], { sampling: 'allow' }), stdioServer('shy', [], { sampling: 'deny' })],
      model: () => model,
      log: createLogger({ level: 'silent', file: null }),
      questions: answering('once', { action: 'cancel' }).questions,
      notify: () => undefined,
      openUrl: async () => undefined,
      onRecord: (record) => records.push(record),
    });
    await g.sample(request('lab'), signal);
    await expect(g.sample(request('shy'), signal)).rejects.toThrow('sampling is denied for shy in the config');
    await g.fillForm({ server: 'lab', message: 'Who?', fields: [] }, signal);
    const durationMs = expect.any(Number);
    expect(records).toEqual([
      { server: 'lab', kind: 'sampling', outcome: 'accepted', model: 'llama3.2', durationMs },
      { server: 'shy', kind: 'sampling', outcome: 'declined', durationMs },
      { server: 'lab', kind: 'form', outcome: 'cancelled', durationMs },
    ]);
  });

  it('the end of a URL step is said only for a URL the user opened', async () => {
    const { questions } = answering('once');
    const { gate: g, notices } = gate({}, questions);
    const url = { server: 'lab', message: 'Sign in', url: 'https://example.com/a', elicitationId: 'e1' };
    expect(await g.visitUrl(url, signal)).toBe('accept');
    g.urlCompleted('lab', 'other');
    g.urlCompleted('lab', 'e1');
    g.urlCompleted('lab', 'e1');
    expect(notices).toEqual(['lab: the step at https://example.com/a is complete.']);
  });

  it('a question book no front end listens to is no one to ask: the request is declined as a script declines it', async () => {
    const { gate: g, notices } = gate({}, new QuestionBook());
    await expect(g.sample(request(), signal)).rejects.toThrow('this run cannot ask');
    expect(notices[0]).toContain('no one is here to answer');
  });

  it('a server that withdraws its request withdraws the question: the answer is a refusal, and later answers are refused', async () => {
    const questions = new QuestionBook();
    const changes: string[] = [];
    let asked: string | undefined;
    questions.subscribe((change) => {
      changes.push(change.type === 'asked' ? `asked ${change.question.kind}` : `settled withdrawn=${change.withdrawn}`);
      if (change.type === 'asked') asked = change.question.id;
    });
    const withdraw = new AbortController();
    const { gate: g } = gate({}, questions);
    const pending = g.visitUrl(
      { server: 'lab', message: 'Sign in', url: 'https://example.com/b', elicitationId: 'e2' },
      withdraw.signal,
    );
    await vi.waitFor(() => expect(asked).toBeDefined(), CONDITION_WAIT);
    withdraw.abort();
    expect(await pending).toBe('decline');
    expect(questions.answer(asked as string, 'once')).toBe(false);
    expect(changes).toEqual(['asked url', 'settled withdrawn=true']);
  });
});
