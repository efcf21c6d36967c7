/**
 * Decides, while a reply streams in, which text is safe to show. Prose is shown at
 * once; from the first character that could begin a tool call (`{`, a code fence,
 * a tag, a list at a line start) the rest is held until the reply is complete and
 * the detector has ruled, so raw call JSON never reaches the screen.
 */
import { stripThinking } from '../tool-call/detector.js';

export interface StreamDelta {
  answer: string;
  thinking: string;
}

/** The longest line start that may still grow into a call (a call word after indentation). */
const MAX_LINE_HEAD = 64;
/** Words that open a call at a line start: Phi's `functools[`, Functionary's `>>>name`. */
const CALL_WORDS = ['functools', '>>>'];

/** Where text stops being certainly prose, and whether a possible call start was found there. */
function scanProse(visible: string): { end: number; trigger: boolean } {
  const candidates = [
    visible.indexOf('{'),
    visible.indexOf('<'),
    visible.indexOf('```'),
    visible.search(/(^|\n)[ \t]*(\[|functools|>>>)/),
  ].filter((index) => index >= 0);
  const trigger = candidates.length > 0;
  let end = trigger ? Math.min(...candidates) : visible.length;
  // A trailing backtick or two may be the start of a fence: wait for the next delta.
  while (end > 0 && visible[end - 1] === '`') end -= 1;
  // So may one or two `>` at a line start be the start of `>>>` (a quote's `> ` goes on at once).
  const arrows = /(?:^|\n)[ \t]*(>{1,2})$/.exec(visible.slice(0, end));
  if (arrows) end -= (arrows[1] as string).length;
  return { end, trigger };
}

/** Where text stops being certainly prose. */
export function proseEnd(visible: string): number {
  return scanProse(visible).end;
}

/**
 * Work per delta is proportional to the delta, not to the reply so far, so a long reply
 * streams in linear time. Shown prose holds no trigger, so only the text that can still
 * combine with new text is scanned again: the head of the current line while it could
 * begin a call, else the last two characters (a fence). Once a trigger holds the rest,
 * nothing releases it before the reply ends, unless a `<` or `[THINK]` opens a thinking block:
 * from the first of them on, every delta takes the full path.
 */
const THINK = '[THINK]';

export class ReplyStream {
  private raw = '';
  private shownAnswer = '';
  private shownThinking = '';
  private mayThink = false;
  /** A possible call start holds everything after the shown prose. */
  private held = false;
  /** Shown text since the last newline while it could still start a call; `undefined` once it cannot. */
  private lineHead: string | undefined = '';
  /** Visible text neither shown nor held: a trailing backtick or two. */
  private pending = '';
  /**
   * The last two characters shown, kept apart: slicing them off `shownAnswer`, a string built by
   * appending, would make V8 copy the whole reply into one piece at every delta.
   */
  private shownEnd = '';

  /** Feeds one content delta; returns the newly showable answer and inline-thinking text. */
  push(delta: string): StreamDelta {
    this.raw += delta;
    // Mistral's `[THINK]` opens reasoning without a `<`; only its span over this delta is searched.
    this.mayThink ||= delta.includes('<') || this.raw.slice(-(delta.length + THINK.length)).includes(THINK);
    if (this.mayThink) return this.pushFull();
    if (this.held) return { answer: '', thinking: '' };
    return { answer: this.pushProse(delta), thinking: '' };
  }

  private pushProse(delta: string): string {
    const text = this.shownAnswer === '' && this.pending === '' ? delta.trimStart() : delta;
    // Mid-line, a '.' stands for the rest of the line, so the window does not begin at a line start.
    const context = this.lineHead ?? `.${this.shownEnd}`;
    const window = context + this.pending + text;
    const { end, trigger } = scanProse(window);
    const showTo = Math.max(end, context.length);
    const answer = window.slice(context.length, showTo);
    this.held = trigger;
    this.pending = trigger ? '' : window.slice(showTo);
    this.shownAnswer += answer;
    this.shownEnd = (this.shownEnd + answer).slice(-2);
    this.trackLineHead(answer);
    return answer;
  }

  private trackLineHead(shown: string): void {
    const newline = shown.lastIndexOf('\n');
    if (newline < 0 && this.lineHead === undefined) return;
    const head = newline >= 0 ? shown.slice(newline + 1) : `${this.lineHead ?? ''}${shown}`;
    const start = head.trimStart();
    const couldStartCall = head.length <= MAX_LINE_HEAD && CALL_WORDS.some((word) => word.startsWith(start));
    this.lineHead = couldStartCall ? head : undefined;
  }

  /** The general path: thinking tags may come and go, so the whole reply is split again. */
  private pushFull(): StreamDelta {
    const { thinking, visible } = stripThinking(this.raw);
    const thinkingDelta = thinking.startsWith(this.shownThinking) ? thinking.slice(this.shownThinking.length) : '';
    this.shownThinking = thinking;
    const trimmed = visible.trimStart();
    const safe = trimmed.slice(0, proseEnd(trimmed));
    let answerDelta = '';
    if (safe.length > this.shownAnswer.length && safe.startsWith(this.shownAnswer)) {
      answerDelta = safe.slice(this.shownAnswer.length);
      this.shownAnswer = safe;
    }
    return { answer: answerDelta, thinking: thinkingDelta };
  }

  get text(): string {
    return this.raw;
  }

  /** The reply without its inline reasoning (`<think>…</think>` and the like). */
  get visibleText(): string {
    return this.mayThink ? stripThinking(this.raw).visible : this.raw;
  }

  /** Already-shown answer text (prose that preceded a tool call stays on screen). */
  get shown(): string {
    return this.shownAnswer;
  }

  /** The part of the final answer not yet shown. */
  remainder(answer: string): string {
    if (answer.startsWith(this.shownAnswer)) return answer.slice(this.shownAnswer.length);
    return this.shownAnswer ? `\n${answer}` : answer;
  }
}
