/**
 * The questions put to the person at the REPL, as the screen holds them: a server's (may it use
 * the model, may a URL open, a form to fill in field by field) and
 * the REPL's own offer to pull a model. Each is answered on the input line with Enter once it is
 * ready (question-guard.ts; Esc says no at once); several wait their turn. Plain data: an answer
 * is a decision the controller gives the session by the question's id.
 */
import type { Decision, ServerQuestion } from '../vocabulary/questions.js';
import {
  samplingLines,
  type FormField,
  type FormRequest,
  type FormValue,
  type SamplingRequest,
} from '../vocabulary/server-requests.js';
import type { QuestionId } from '../vocabulary/types.js';
import { fieldHint, parseFieldInput } from './form-input.js';
import type { NewHistoryItem } from './history.js';
import { TOOL_CHANGES_PROMPT, toolChangesQuestion, type ToolChangesScreenQuestion } from './tool-changes-question.js';

export type ScreenQuestion =
  | { type: 'sampling'; id: QuestionId; text: string }
  | { type: 'url'; id: QuestionId; text: string }
  /** The REPL's own offer, put the same way: download a model that is not pulled (ui/model-pull.ts)? */
  | { type: 'pull'; id: QuestionId; text: string; model: string }
  | {
      type: 'form';
      id: QuestionId;
      text: string;
      request: FormRequest;
      /** Values given so far, field by field; all given, the question is whether to send them. */
      values: Record<string, FormValue>;
      /** Fields answered (given or skipped). */
      answered: number;
    }
  | ToolChangesScreenQuestion;

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

function samplingText(request: SamplingRequest, model: string): string {
  const { asked, limits } = samplingLines(request);
  return [
    `${request.server} asks your model (${model}) for a completion:`,
    indent(asked.join('\n')),
    `  ${limits}`,
    `Allow it? y once, a always for ${request.server} this session, n deny. The completion goes back to ${request.server}.`,
  ].join('\n');
}

/** A server's question as the screen puts it. */
export function screenQuestion(question: ServerQuestion): ScreenQuestion {
  const { id } = question;
  switch (question.kind) {
    case 'sampling':
      return { type: 'sampling', id, text: samplingText(question.request, question.model) };
    case 'url': {
      const { request } = question;
      const text = `${request.server} asks you to open a URL:\n  ${request.url}\n${indent(request.message)}\nOpen it in your browser? y/n`;
      return { type: 'url', id, text };
    }
    case 'form': {
      const { request } = question;
      const text = `${request.server} asks for information:\n${indent(request.message)}\nEnter each field; Esc cancels.`;
      return { type: 'form', id, text, request, values: {}, answered: 0 };
    }
    case 'tool-changes':
      return toolChangesQuestion(id, question.changes);
  }
}

/** The field a form question is at; none once every field is answered. */
export function currentField(question: Extract<ScreenQuestion, { type: 'form' }>): FormField | undefined {
  return question.request.fields[question.answered];
}

/** What leads the input line while the question waits, what is said under it, and whether the line is masked. */
export interface QuestionPrompt {
  label: string;
  hint?: string;
  /** A form's secret field: each character typed shows as a dot. */
  masked?: boolean;
}

/** The form field being asked asks for a secret. */
export function asksSecret(question: ScreenQuestion): boolean {
  return question.type === 'form' && currentField(question)?.secret === true;
}

export function questionPrompt(question: ScreenQuestion, typed: string): QuestionPrompt {
  switch (question.type) {
    case 'sampling':
      return { label: 'allow? y/a/n' };
    case 'url':
      return { label: 'open? y/n' };
    case 'pull':
      return { label: 'pull? y/n' };
    case 'tool-changes':
      return TOOL_CHANGES_PROMPT;
    case 'form': {
      const field = currentField(question);
      if (!field) return { label: `send to ${question.request.server}? y/n` };
      const input = typed === '' ? undefined : parseFieldInput(field, typed);
      const problem = input && 'problem' in input ? ` — needs ${input.problem}` : '';
      return { label: field.name, hint: `${fieldHint(field)}${problem}`, ...(field.secret ? { masked: true } : {}) };
    }
  }
}

const YES_NO: Record<string, Decision> = { y: 'once', yes: 'once', n: 'deny', no: 'deny' };
const SAMPLING: Record<string, Decision> = { ...YES_NO, a: 'always' };

/** What a line typed at the question does: the question as it goes on (a form's next field), the scrollback's lines, and the answer once it is given. */
export interface QuestionStep {
  next?: ScreenQuestion;
  items: NewHistoryItem[];
  decision?: Decision;
}

/** A line typed while the question waits. */
export function answerQuestion(question: ScreenQuestion, typed: string): QuestionStep {
  const text = typed.trim();
  const again = (problem: string): QuestionStep => ({
    next: question,
    items: [{ type: 'error', text: problem, hint: 'Esc says no.' }],
  });
  const answered = (decision: Decision): QuestionStep => ({ items: [{ type: 'user', text }], decision });
  switch (question.type) {
    case 'sampling': {
      const decision = SAMPLING[text.toLowerCase()];
      return decision ? answered(decision) : again('Answer y, a or n.');
    }
    case 'url':
    case 'pull':
    case 'tool-changes': {
      const decision = YES_NO[text.toLowerCase()];
      return decision ? answered(decision) : again('Answer y or n.');
    }
    case 'form':
      return answerForm(question, typed, again, answered);
  }
}

function answerForm(
  question: Extract<ScreenQuestion, { type: 'form' }>,
  typed: string,
  again: (problem: string) => QuestionStep,
  answered: (decision: Decision) => QuestionStep,
): QuestionStep {
  const field = currentField(question);
  if (!field) {
    const send = YES_NO[typed.trim().toLowerCase()];
    if (send === undefined) return again('Answer y or n.');
    return answered(send === 'deny' ? { action: 'decline' } : { action: 'accept', content: question.values });
  }
  const input = parseFieldInput(field, typed);
  if ('problem' in input) return again(`${field.name} needs ${input.problem}.`);
  const values = 'value' in input ? { ...question.values, [field.name]: input.value } : question.values;
  // Security: a secret's value is never shown, nor kept with the screen in the session file.
  const shown = !('value' in input) ? '(left out)' : field.secret ? '(hidden)' : valueShown(field, input.value);
  const next = { ...question, values, answered: question.answered + 1 };
  return { next, items: [{ type: 'user', text: `${field.name} = ${shown}` }] };
}

/** A chosen option by its title (what the list showed), not the value the server gets. */
function valueShown(field: FormField, value: FormValue): string {
  if (field.kind !== 'choice' && field.kind !== 'choices') return JSON.stringify(value);
  const title = (chosen: string): string => field.options.find((option) => option.value === chosen)?.label ?? chosen;
  return Array.isArray(value) ? value.map(title).join(', ') : title(String(value));
}

/** Esc: no to whatever is asked (a form is cancelled). */
export function refusalOf(question: ScreenQuestion): Decision {
  return question.type === 'form' ? { action: 'cancel' } : 'deny';
}
