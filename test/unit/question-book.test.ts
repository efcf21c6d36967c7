/**
 * The session's questions by id: each answered once, by its own id, with a decision that fits it;
 * a signal that aborts refuses it; only what a server asks is announced to the front ends.
 */
import { describe, expect, it } from 'vitest';
import { QuestionBook } from '../../src/engine/question-book.js';
import type { QuestionChange } from '../../src/vocabulary/questions.js';
import type { FormRequest, UrlRequest } from '../../src/vocabulary/server-requests.js';
import type { ToolCall } from '../../src/vocabulary/types.js';

const call: ToolCall = { server: 'file', tool: 'write_file', arguments: { path: 'a.txt', content: 'x' } };
const url: UrlRequest = { server: 'lab', message: 'Sign in', url: 'https://example.com', elicitationId: 'e1' };
const form: FormRequest = { server: 'lab', message: 'Who?', fields: [] };

describe('QuestionBook', () => {
  it('gives each question its own id and settles only the one answered', async () => {
    const book = new QuestionBook();
    const first = book.open({ kind: 'approval', callId: 'call_1', call }, undefined);
    const second = book.open({ kind: 'approval', callId: 'call_2', call }, undefined);
    expect(first.question.id).not.toBe(second.question.id);
    expect(book.answer(second.question.id, 'always')).toBe(true);
    expect(await second.answered).toBe('always');
    expect(book.answer(first.question.id, 'deny')).toBe(true);
    expect(await first.answered).toBe('deny');
  });

  it('takes one answer: a second one, or one for an id it never gave, is refused', async () => {
    const book = new QuestionBook();
    const open = book.open({ kind: 'approval', callId: 'call_1', call }, undefined);
    expect(book.answer(open.question.id, 'once')).toBe(true);
    expect(book.answer(open.question.id, 'deny')).toBe(false);
    expect(book.answer('question_999', 'once')).toBe(false);
    expect(await open.answered).toBe('once');
  });

  it("refuses a decision that does not fit: a form's values for an approval, a bare yes for a form", async () => {
    const book = new QuestionBook();
    const approval = book.open({ kind: 'approval', callId: 'call_1', call }, undefined);
    expect(book.answer(approval.question.id, { action: 'accept', content: {} })).toBe(false);
    const asked = book.open({ kind: 'form', request: form }, undefined);
    expect(book.answer(asked.question.id, 'once')).toBe(false);
    expect(book.answer(asked.question.id, 'deny')).toBe(true);
    expect(await asked.answered).toEqual({ action: 'decline' });
  });

  it('reads a yes/no question: deny is no, once and always are yes', async () => {
    const book = new QuestionBook();
    const signal = new AbortController().signal;
    const [no, yes, always] = [
      book.ask({ kind: 'url', request: url }, signal),
      book.ask({ kind: 'url', request: url }, signal),
      book.ask({ kind: 'url', request: url }, signal),
    ];
    book.answer(no.question.id, 'deny');
    book.answer(yes.question.id, 'once');
    book.answer(always.question.id, 'always');
    expect(await Promise.all([no.answered, yes.answered, always.answered])).toEqual([false, true, true]);
  });

  it('a signal that aborts refuses the question, whatever its kind; one aborted already is refused at once', async () => {
    const book = new QuestionBook();
    const stop = new AbortController();
    const approval = book.open({ kind: 'approval', callId: 'call_1', call }, stop.signal);
    const asked = book.ask({ kind: 'form', request: form }, stop.signal);
    stop.abort();
    expect(await approval.answered).toBe('deny');
    expect(await asked.answered).toEqual({ action: 'cancel' });
    const late = book.ask({ kind: 'url', request: url }, stop.signal);
    expect(await late.answered).toBe(false);
    expect(book.waiting()).toEqual([]);
  });

  it("announces only what is asked (a server's question), with its settling; a turn's approval is its own event", () => {
    const book = new QuestionBook();
    const changes: QuestionChange[] = [];
    expect(book.listening).toBe(false);
    const stop = book.subscribe((change) => changes.push(change));
    expect(book.listening).toBe(true);
    book.open({ kind: 'approval', callId: 'call_1', call }, undefined);
    const asked = book.ask({ kind: 'url', request: url }, new AbortController().signal);
    expect(book.waiting()).toEqual([asked.question]);
    book.answer(asked.question.id, 'once');
    expect(changes).toEqual([
      { type: 'asked', question: asked.question },
      { type: 'settled', id: asked.question.id, withdrawn: false },
    ]);
    stop();
    expect(book.listening).toBe(false);
  });
});
