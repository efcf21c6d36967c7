/**
 * Keys while the approval question is open. Security: a key answers only once the question is
 * ready (see `ApprovalActivity`); before that it is the user's typing, kept in the input line, and
 * it restarts the wait. Esc and `n` refuse at once (refusing is always safe); `y` and `a` choose
 * and Enter confirms, so a word typed ahead (`yes`, `and`) never allows anything.
 */
import type { ApprovalDecision } from '../vocabulary/types.js';
import type { AllowingDecision, ApprovalActivity } from './history.js';

export interface ApprovalControls {
  answer: (decision: ApprovalDecision) => void;
  choose: (choice: AllowingDecision | undefined) => void;
  typedAhead: () => void;
  showWholeCall: () => void;
  cancel: () => void;
}

/** The subset of Ink's `Key` read here. */
export interface ApprovalKey {
  return?: boolean;
  escape?: boolean;
  ctrl?: boolean;
}

const CHOICES: Record<string, AllowingDecision> = { y: 'once', a: 'always' };

/** Handles a key of the question; false when the key is typing that belongs to the input line. */
export function approvalKey(
  input: string,
  key: ApprovalKey,
  activity: ApprovalActivity,
  controls: ApprovalControls,
): boolean {
  if (key.ctrl && input === 'c') controls.cancel();
  else if (key.escape) controls.answer('deny');
  else if (!activity.ready) {
    controls.typedAhead();
    return false;
  } else if (key.return) {
    if (activity.choice) controls.answer(activity.choice);
  } else {
    const pressed = input.toLowerCase();
    if (pressed === 'n') controls.answer('deny');
    else if (pressed === 'v') controls.showWholeCall();
    else controls.choose(CHOICES[pressed]);
  }
  return true;
}
