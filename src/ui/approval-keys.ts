/**
 * Keys while the approval question is open. Security: a key answers only once the question is
 * ready (see `ApprovalActivity`); before that it is the user's typing, kept in the input line, and
 * it restarts the wait. Esc and `n` refuse at once (refusing is always safe); `y` and `a` choose
 * and Enter confirms, so a word typed ahead (`yes`, `and`) never allows anything. A call too long
 * for the box scrolls (↑/↓, j/k, PgUp/PgDn); it takes `y` and `a` once seen to its end or with `v`.
 */
import type { ApprovalDecision } from '../vocabulary/types.js';
import type { AllowingDecision, ApprovalActivity } from './history.js';
import { REVIEW_ROWS } from './approval-review.js';

export interface ApprovalControls {
  answer: (decision: ApprovalDecision) => void;
  choose: (choice: AllowingDecision | undefined) => void;
  typedAhead: () => void;
  showWholeCall: () => void;
  /** Moves the view of a call too long for the box `by` rows. */
  scroll: (by: number) => void;
  cancel: () => void;
}

/** The subset of Ink's `Key` read here. */
export interface ApprovalKey {
  return?: boolean;
  escape?: boolean;
  ctrl?: boolean;
  upArrow?: boolean;
  downArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
}

const CHOICES: Record<string, AllowingDecision> = { y: 'once', a: 'always' };

/** Rows a key scrolls the view by, if it scrolls. */
function scrollStep(input: string, key: ApprovalKey): number | undefined {
  if (key.upArrow || input === 'k') return -1;
  if (key.downArrow || input === 'j') return 1;
  if (key.pageUp) return -REVIEW_ROWS;
  if (key.pageDown) return REVIEW_ROWS;
  return undefined;
}

/** An answering key of a question that is ready: `n` denies, `v` shows the whole call, `y` and `a` choose. */
function answerKey(input: string, controls: ApprovalControls): void {
  const pressed = input.toLowerCase();
  if (pressed === 'n') controls.answer('deny');
  else if (pressed === 'v') controls.showWholeCall();
  else controls.choose(CHOICES[pressed]);
}

/** Handles a key of the question; false when the key is typing that belongs to the input line. */
export function approvalKey(
  input: string,
  key: ApprovalKey,
  activity: ApprovalActivity,
  controls: ApprovalControls,
): boolean {
  const by = activity.review ? scrollStep(input, key) : undefined;
  if (key.ctrl && input === 'c') controls.cancel();
  else if (key.escape) controls.answer('deny');
  else if (!activity.ready) {
    controls.typedAhead();
    return false;
  } else if (key.return) {
    if (activity.choice) controls.answer(activity.choice);
  } else if (by !== undefined) controls.scroll(by);
  else answerKey(input, controls);
  return true;
}
