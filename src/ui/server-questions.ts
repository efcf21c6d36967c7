/**
 * A server's requests put to the person at the REPL: may it use the model, may its completion
 * go back, may a URL open, and a form to fill in field by field. Each is answered on the input
 * line with Enter (Esc says no); several wait their turn. The question is state; its answer
 * callback resolves the server's pending request.
 */
import type {
  FormAnswer,
  FormField,
  FormRequest,
  FormValue,
  SamplingRequest,
  SamplingResult,
  UrlRequest,
} from '../vocabulary/server-requests.js';
import type { SamplingApproval, UserQuestions } from '../session/server-request-gate.js';
import { fieldHint, parseFieldInput } from './form-input.js';
import type { NewHistoryItem } from './history.js';

export type ServerQuestion =
  | { type: 'sampling'; id: number; text: string; answer: (approval: SamplingApproval) => void }
  | { type: 'review' | 'url'; id: number; text: string; answer: (yes: boolean) => void }
  /** The REPL's own offer, put the same way: download a model that is not pulled (ui/model-pull.ts)? */
  | { type: 'pull'; id: number; text: string; answer: (yes: boolean) => void; setAside: () => void }
  | {
      type: 'form';
      id: number;
      text: string;
      request: FormRequest;
      /** Values given so far, field by field; all given, the question is whether to send them. */
      values: Record<string, FormValue>;
      /** Fields answered (given or skipped). */
      answered: number;
      answer: (answer: FormAnswer) => void;
    };

/** What the store does for the questions: show one, and take it away once answered or withdrawn. */
export interface QuestionStore {
  ask(question: ServerQuestion): void;
  /** `note`: a line for the scrollback (the server withdrew it). */
  done(id: number, note?: string): void;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

function samplingText(request: SamplingRequest, model: string): string {
  const messages = request.messages.map((message) => {
    const images = message.images.length > 0 ? ` [+${message.images.length} image(s)]` : '';
    return `${message.role}: ${message.text}${images}`;
  });
  const system = request.systemPrompt ? [`system: ${request.systemPrompt}`] : [];
  const limits = [
    `at most ${request.maxTokens} tokens`,
    ...(request.temperature === undefined ? [] : [`temperature ${request.temperature}`]),
    ...(request.stopSequences?.length ? [`stops at ${JSON.stringify(request.stopSequences)}`] : []),
  ];
  return [
    `${request.server} asks your model (${model}) for a completion:`,
    indent([...system, ...messages].join('\n')),
    `  ${limits.join(' · ')}`,
    `Answer y (once), a (always for ${request.server} this session) or n.`,
  ].join('\n');
}

/** The asker the session's gate uses while the REPL runs: each question waits in the store. */
export function storeQuestions(store: QuestionStore): UserQuestions {
  let nextId = 0;
  function put<T>(
    signal: AbortSignal,
    refused: T,
    make: (id: number, settle: (value: T) => void) => ServerQuestion,
  ): Promise<T> {
    const id = ++nextId;
    return new Promise<T>((resolve) => {
      const withdrawn = (): void => {
        store.done(id, 'The server withdrew its request.');
        resolve(refused);
      };
      if (signal.aborted) return withdrawn();
      signal.addEventListener('abort', withdrawn, { once: true });
      store.ask(
        make(id, (value) => {
          signal.removeEventListener('abort', withdrawn);
          store.done(id);
          resolve(value);
        }),
      );
    });
  }
  return {
    approveSampling: (request, model, signal) =>
      put<SamplingApproval>(signal, 'deny', (id, answer) => ({
        type: 'sampling',
        id,
        text: samplingText(request, model),
        answer,
      })),
    reviewCompletion: (request: SamplingRequest, result: SamplingResult, signal) =>
      put(signal, false, (id, answer) => ({
        type: 'review',
        id,
        text: `The completion for ${request.server} (${result.model}):\n${indent(result.text)}\nSend it to ${request.server}? y/n`,
        answer,
      })),
    approveUrl: (request: UrlRequest, signal) =>
      put(signal, false, (id, answer) => ({
        type: 'url',
        id,
        text: `${request.server} asks you to open a URL:\n  ${request.url}\n${indent(request.message)}\nOpen it in your browser? y/n`,
        answer,
      })),
    fillForm: (request, signal) =>
      put<FormAnswer>(signal, { action: 'cancel' }, (id, answer) => ({
        type: 'form',
        id,
        text: `${request.server} asks for information:\n${indent(request.message)}\nEnter each field; Esc cancels.`,
        request,
        values: {},
        answered: 0,
        answer,
      })),
  };
}

/** The field a form question is at; none once every field is answered. */
export function currentField(question: Extract<ServerQuestion, { type: 'form' }>): FormField | undefined {
  return question.request.fields[question.answered];
}

/** What leads the input line while the question waits, and what is said under it. */
export function questionPrompt(question: ServerQuestion, typed: string): { label: string; hint?: string } {
  switch (question.type) {
    case 'sampling':
      return { label: 'use the model? y/a/n' };
    case 'review':
      return { label: 'send? y/n' };
    case 'url':
      return { label: 'open? y/n' };
    case 'pull':
      return { label: 'pull? y/n' };
    case 'form': {
      const field = currentField(question);
      if (!field) return { label: `send to ${question.request.server}? y/n` };
      const input = typed === '' ? undefined : parseFieldInput(field, typed);
      const problem = input && 'problem' in input ? ` — needs ${input.problem}` : '';
      return { label: field.name, hint: `${fieldHint(field)}${problem}` };
    }
  }
}

const yes = (text: string): boolean | undefined =>
  /^(y|yes)$/i.test(text) ? true : /^(n|no)$/i.test(text) ? false : undefined;

/**
 * A line typed while the question waits: the question as it goes on (a form's next field), with
 * what the scrollback shows of the answer. The answer callback has been called when it is over.
 */
export function answerQuestion(
  question: ServerQuestion,
  typed: string,
): { next?: ServerQuestion; items: NewHistoryItem[] } {
  const text = typed.trim();
  const again = (problem: string): { next: ServerQuestion; items: NewHistoryItem[] } => ({
    next: question,
    items: [{ type: 'error', text: problem, hint: 'Esc says no.' }],
  });
  switch (question.type) {
    case 'sampling': {
      const approval = ({ y: 'once', yes: 'once', a: 'always', n: 'deny', no: 'deny' } as const)[
        text.toLowerCase() as 'y'
      ];
      if (!approval) return again('Answer y, a or n.');
      question.answer(approval);
      return { items: [{ type: 'user', text }] };
    }
    case 'review':
    case 'url':
    case 'pull': {
      const answer = yes(text);
      if (answer === undefined) return again('Answer y or n.');
      question.answer(answer);
      return { items: [{ type: 'user', text }] };
    }
    case 'form': {
      const field = currentField(question);
      if (!field) {
        const send = yes(text);
        if (send === undefined) return again('Answer y or n.');
        question.answer(send ? { action: 'accept', content: question.values } : { action: 'decline' });
        return { items: [{ type: 'user', text }] };
      }
      const input = parseFieldInput(field, typed);
      if ('problem' in input) return again(`${field.name} needs ${input.problem}.`);
      const values = 'value' in input ? { ...question.values, [field.name]: input.value } : question.values;
      const shown = 'value' in input ? JSON.stringify(input.value) : '(left out)';
      const next = { ...question, values, answered: question.answered + 1 };
      return { next, items: [{ type: 'user', text: `${field.name} = ${shown}` }] };
    }
  }
}

/** Esc: no to whatever is asked (a form is cancelled). */
export function refuseQuestion(question: ServerQuestion): void {
  if (question.type === 'sampling') question.answer('deny');
  else if (question.type === 'form') question.answer({ action: 'cancel' });
  else question.answer(false);
}
