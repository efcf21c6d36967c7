/**
 * What is put to the user while the chat runs, as data with an id: may a call run, may a server use
 * the model, may a URL open, a form to fill in, may a server's changed tools be offered. Every front end answers
 * a question the same way, by its id (`answer(id, decision)` on the session), never through a
 * callback inside it.
 */
import type { FormAnswer, FormRequest, SamplingRequest, UrlRequest } from './server-requests.js';
import type { ServerToolChanges } from './tool-pins.js';
import type { ApprovalDecision, CallId, QuestionId, ToolCall } from './types.js';

export type Question =
  | { id: QuestionId; kind: 'approval'; callId: CallId; call: ToolCall }
  /** `model`: the model that would write the completion. */
  | { id: QuestionId; kind: 'sampling'; request: SamplingRequest; model: string }
  | { id: QuestionId; kind: 'form'; request: FormRequest }
  | { id: QuestionId; kind: 'url'; request: UrlRequest }
  /** A server's tools new or changed since the user accepted them: may the model be offered them? */
  | { id: QuestionId; kind: 'tool-changes'; changes: ServerToolChanges };

/** What is asked outside a turn's own events: a server's requests, and its changed tools (all but approval). */
export type ServerQuestion = Exclude<Question, { kind: 'approval' }>;

export type QuestionKind = Question['kind'];

/** A question before it is given its id. */
export type QuestionBody = Question extends infer Q ? (Q extends Question ? Omit<Q, 'id'> : never) : never;

/**
 * An answer as a front end gives it. `once` and `always` say yes (to a yes/no question, `always`
 * is a yes), `deny` says no (to a form: declined); a form's answer is its own.
 */
export type Decision = ApprovalDecision | FormAnswer;

/** What the one who asked gets back, by kind. */
export interface AnswerOf {
  approval: ApprovalDecision;
  sampling: ApprovalDecision;
  url: boolean;
  form: FormAnswer;
  'tool-changes': boolean;
}

/** A question the front ends are shown, or one that is over (`withdrawn`: by the server, or the turn ended). */
export type QuestionChange =
  { type: 'asked'; question: ServerQuestion } | { type: 'settled'; id: QuestionId; withdrawn: boolean };
