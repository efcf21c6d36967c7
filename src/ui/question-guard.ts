/**
 * The wait before a question asked on the input line (a server's, and the REPL's own offer to
 * pull a model) takes an answer. Security: a key typed before the question could be read (typed
 * ahead, or a line begun before it appeared) must not answer it. So the question is ready only once
 * it has been drawn and no key has come for a moment (use-quiet-wait.ts); each key typed before
 * restarts the wait, and Enter then answers nothing. A form's next field is a question of its own.
 * What the line held before (the user's draft) is set aside when the question appears, and what is
 * typed before it is ready joins it; the draft comes back once nothing is asked. The answer is only
 * what is typed after the question is ready.
 */
import type { Key } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { editLine, emptyLine, type LineState } from './line-editor.js';
import { asksSecret, questionPrompt, type QuestionPrompt, type ScreenQuestion } from './server-questions.js';
import { useQuietWait } from './use-quiet-wait.js';

export const NOT_READY_HINT = 'Read the question; answers are taken in a moment (Esc declines now).';

/** How much of the draft set aside the hint quotes. */
const DRAFT_SHOWN_CHARS = 40;

/** One question for the guard: each field of a form is read before it is answered. */
export function questionMoment(question: ScreenQuestion): string {
  return question.type === 'form' ? `${question.id}#${question.answered}` : question.id;
}

export interface LineAccess {
  current: () => LineState;
  set: (next: LineState) => void;
}

export interface QuestionGuard {
  /** The question takes an answer now (read by key handlers, which may run before the next render). */
  isReady: (question: ScreenQuestion) => boolean;
  /** A key came before the question was ready: its wait starts again. */
  typedAhead: () => void;
  /** The prompt for the question being asked. */
  prompt: (question: ScreenQuestion, typed: string) => Partial<QuestionPrompt>;
}

/** What the guard keeps between renders; key handlers and timers read it as it is now. */
interface GuardMemory {
  /** The question moment that took an answer last. */
  ready: string | undefined;
  /** The user's line, set aside while questions are asked; undefined when nothing is asked. */
  draft: string | undefined;
  /** The line now holds an answer, or typing for a secret field: it never joins the draft. */
  lineIsAnswer: boolean;
}

/** At each new question moment the line is set aside; once nothing is asked, it comes back. */
function useDraftAside(moment: string | undefined, line: LineAccess, memory: GuardMemory, secret: boolean): void {
  useEffect(() => {
    const now = line.current();
    // An answer never given (Esc, or withdrawn by the server) goes with its question.
    const typed = memory.lineIsAnswer ? '' : now.text;
    memory.lineIsAnswer = secret;
    if (moment === undefined) {
      if (memory.draft === undefined) return;
      const back = memory.draft + typed;
      memory.draft = undefined;
      line.set({ ...now, text: back, cursor: back.length, search: undefined });
      return;
    }
    memory.draft = (memory.draft ?? '') + typed;
    if (now.text !== '') line.set({ ...emptyLine, recall: now.recall });
    // `line` and `memory` stay the same; only a new question moment sets the line aside.
  }, [moment]);
}

export function useQuestionGuard(question: ScreenQuestion | undefined, line: LineAccess): QuestionGuard {
  const moment = question && questionMoment(question);
  const memory = useRef<GuardMemory>({ ready: undefined, draft: undefined, lineIsAnswer: false }).current;
  const [, setReady] = useState<string>();
  const [keys, setKeys] = useState(0);
  // Security: typing for a secret field, even before it was ready, may be the secret: it never
  // joins the draft, which comes back in plain text.
  useDraftAside(moment, line, memory, question !== undefined && asksSecret(question));
  useQuietWait(moment !== undefined && memory.ready !== moment, `${moment}:${keys}`, () => {
    const now = line.current();
    if (!memory.lineIsAnswer) memory.draft = (memory.draft ?? '') + now.text;
    if (now.text !== '') line.set({ ...emptyLine, recall: now.recall });
    memory.lineIsAnswer = true;
    memory.ready = moment;
    setReady(moment);
  });
  const isReady = (asked: ScreenQuestion): boolean => memory.ready === questionMoment(asked);
  return {
    isReady,
    typedAhead: () => setKeys((count) => count + 1),
    prompt: (asked, typed) => {
      const masked = asksSecret(asked) ? { masked: true } : {};
      if (!isReady(asked)) return { hint: NOT_READY_HINT, ...masked };
      const prompt = questionPrompt(asked, typed);
      const kept = memory.draft ? draftNote(memory.draft) : undefined;
      return kept ? { ...prompt, hint: prompt.hint ? `${prompt.hint} · ${kept}` : kept } : prompt;
    },
  };
}

function draftNote(draft: string): string {
  const line = draft.replace(/\s+/g, ' ').trim();
  const shown = line.length > DRAFT_SHOWN_CHARS ? `${line.slice(0, DRAFT_SHOWN_CHARS - 1)}…` : line;
  return `your line "${shown}" comes back after`;
}

/** Fast typing can bring a line and its Enter in one read (`y\r`): its text, then Enter. */
function splitEnter(input: string, key: Key): { text: string; enter: boolean } {
  if (key.return) return { text: '', enter: true };
  const typedLine = input.length > 1 && !key.ctrl && !key.meta && /^[^\r]+\r$/.test(input);
  return typedLine ? { text: input.slice(0, -1), enter: true } : { text: input, enter: false };
}

/**
 * A key while a question waits (Esc and Ctrl+C are the caller's): typing edits the line, and Enter
 * gives the line as the answer once the question is ready; before that it answers nothing. An
 * answer (which may be a secret a form asks for) is not kept for ↑, and may be empty (a default).
 */
export function questionKey(
  input: string,
  key: Key,
  state: { line: LineState; ready: boolean },
  /** `answer` is false when the line was refused: it stays, to be fixed rather than typed again. */
  then: { setLine: (next: LineState) => void; answer: (text: string) => boolean },
): void {
  if (key.tab) return;
  const { line, ready } = state;
  const { text, enter } = splitEnter(input, key);
  // Without the Enter the editor never submits: the line stays on screen until it is an answer.
  const typed = text === '' ? line : editLine(line, text, enter ? {} : key).state;
  if (!enter || !ready) {
    then.setLine(typed);
    return;
  }
  const taken = then.answer(typed.text);
  then.setLine(taken ? { ...emptyLine, recall: line.recall } : typed);
}
