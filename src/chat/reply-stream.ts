/**
 * Decides, while a reply streams in, which text is safe to show. Prose is shown at
 * once; from the first character that could begin a tool call (`{`, a code fence,
 * a tag, a list at a line start) the rest is held until the reply is complete and
 * the detector has ruled, so raw call JSON never reaches the screen.
 */
import { stripThinking } from './tool-call-parser.js';

export interface StreamDelta {
  answer: string;
  thinking: string;
}

/** Where text stops being certainly prose. */
export function proseEnd(visible: string): number {
  const candidates = [
    visible.indexOf('{'),
    visible.indexOf('<'),
    visible.indexOf('```'),
    visible.search(/(^|\n)[ \t]*(\[|functools)/),
  ].filter((index) => index >= 0);
  let end = candidates.length > 0 ? Math.min(...candidates) : visible.length;
  // A trailing backtick or two may be the start of a fence: wait for the next delta.
  while (end > 0 && visible[end - 1] === '`') end -= 1;
  return end;
}

export class ReplyStream {
  private raw = '';
  private shownAnswer = '';
  private shownThinking = '';

  /** Feeds one content delta; returns the newly showable answer and inline-thinking text. */
  push(delta: string): StreamDelta {
    this.raw += delta;
    const { thinking, visible } = stripThinking(this.raw);
    const thinkingDelta = thinking.startsWith(this.shownThinking) ? thinking.slice(this.shownThinking.length) : '';
    this.shownThinking = thinking;
    const safe = visible.trimStart().slice(0, proseEnd(visible.trimStart()));
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
