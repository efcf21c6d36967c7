/**
 * The questions a session waits on, by id: a call's approval, a server's request for the user. A
 * question stays open until it is answered by id or its signal aborts, which refuses it; a
 * decision that does not fit the question (a form's values for a yes/no) is refused, not guessed.
 */
import type {
  AnswerOf,
  Decision,
  Question,
  QuestionBody,
  QuestionChange,
  QuestionKind,
  ServerQuestion,
} from '../vocabulary/questions.js';
import type { FormAnswer } from '../vocabulary/server-requests.js';
import type { QuestionId } from '../vocabulary/types.js';

interface Pending {
  question: Question;
  /** Settles the asker's promise with the decision read for this kind, or refuses it. */
  settle: (decision: Decision | 'refused') => boolean;
  announced: boolean;
}

/** A yes/no question's answer: any decision but `deny` (or a refusal) is a yes; a form's values do not fit. */
function yesOrNo(decision: Decision | 'refused'): boolean | undefined {
  if (decision === 'refused' || decision === 'deny') return false;
  return typeof decision === 'string' ? true : undefined;
}

/** What an answer means for each kind of question; undefined when it does not fit. */
const READ: { [K in QuestionKind]: (decision: Decision | 'refused') => AnswerOf[K] | undefined } = {
  approval: (decision) => (decision === 'refused' ? 'deny' : typeof decision === 'string' ? decision : undefined),
  sampling: (decision) => (decision === 'refused' ? 'deny' : typeof decision === 'string' ? decision : undefined),
  url: (decision) => yesOrNo(decision),
  'tool-changes': (decision) => yesOrNo(decision),
  form: (decision): FormAnswer | undefined => {
    if (decision === 'refused') return { action: 'cancel' };
    if (decision === 'deny') return { action: 'decline' };
    return typeof decision === 'object' ? decision : undefined;
  },
};

export interface OpenQuestion<K extends QuestionKind> {
  question: Extract<Question, { kind: K }>;
  answered: Promise<AnswerOf[K]>;
}

export class QuestionBook {
  private last = 0;
  private readonly pending = new Map<QuestionId, Pending>();
  private readonly listeners = new Set<(change: QuestionChange) => void>();

  /** Opens a question the asker shows itself (a turn's approval, as an event): nothing is announced. */
  open<B extends QuestionBody>(body: B, signal: AbortSignal | undefined): OpenQuestion<B['kind']> {
    return this.register(body, signal, false);
  }

  /** Opens a question and announces it to the front ends listening (a server's request). */
  ask<B extends Exclude<QuestionBody, { kind: 'approval' }>>(body: B, signal: AbortSignal): OpenQuestion<B['kind']> {
    return this.register(body, signal, true);
  }

  /** Whether a front end listens, so that a question announced is seen by someone. */
  get listening(): boolean {
    return this.listeners.size > 0;
  }

  /** Answers an open question; false when there is none by that id or the decision does not fit it. */
  answer(id: QuestionId, decision: Decision): boolean {
    const pending = this.pending.get(id);
    return pending !== undefined && pending.settle(decision);
  }

  /** The announced questions not answered yet, oldest first (for a front end that joins late). */
  waiting(): ServerQuestion[] {
    return [...this.pending.values()]
      .filter((pending) => pending.announced)
      .map((pending) => pending.question as ServerQuestion);
  }

  /** Hears announced questions as they are asked and settled; returns the unsubscribe. */
  subscribe(listener: (change: QuestionChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private register<B extends QuestionBody>(
    body: B,
    signal: AbortSignal | undefined,
    announced: boolean,
  ): OpenQuestion<B['kind']> {
    type K = B['kind'];
    const id = `question_${++this.last}`;
    const question = { ...body, id } as unknown as Extract<Question, { kind: K }>;
    const read = READ[body.kind] as (decision: Decision | 'refused') => AnswerOf[K] | undefined;
    let resolve: (answer: AnswerOf[K]) => void = () => undefined;
    const answered = new Promise<AnswerOf[K]>((settle) => {
      resolve = settle;
    });
    const refuse = (): void => void settle('refused');
    const settle = (decision: Decision | 'refused'): boolean => {
      const answer = read(decision);
      if (answer === undefined || !this.pending.delete(id)) return false;
      signal?.removeEventListener('abort', refuse);
      resolve(answer);
      if (announced) this.tell({ type: 'settled', id, withdrawn: decision === 'refused' });
      return true;
    };
    this.pending.set(id, { question, settle, announced });
    if (announced) this.tell({ type: 'asked', question: question as ServerQuestion });
    if (signal?.aborted) refuse();
    else signal?.addEventListener('abort', refuse, { once: true });
    return { question, answered };
  }

  private tell(change: QuestionChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
