/**
 * What the page draws: the conversation's lines, built with DOM calls. Security: text from the
 * model, tools and servers goes in as `textContent`, except the answer, which goes through the
 * safe markdown renderer (markdown.ts).
 */
import { renderMarkdown } from './markdown.js';

export type Answer = (id: string, decision: 'allow' | 'always' | 'deny') => void;

/** One saved screen item, as the server's `history` message carries it. */
export interface HistoryItem {
  type: string;
  text?: string;
  call?: { server: string; tool: string; arguments: Record<string, unknown> };
  result?: { isError: boolean; durationMs: number };
}

function line(className: string, text: string): HTMLElement {
  const element = document.createElement('div');
  element.className = className;
  element.textContent = text;
  return element;
}

export class ConversationView {
  private answer: { element: HTMLElement; text: string } | undefined;
  private readonly tools = new Map<string, HTMLElement>();
  private readonly questions = new Map<string, HTMLElement>();

  constructor(private readonly log: HTMLElement) {}

  clear(): void {
    this.log.replaceChildren();
    this.answer = undefined;
    this.tools.clear();
    this.questions.clear();
  }

  user(text: string): void {
    this.endAnswer();
    this.append(line('user', text));
  }

  /** A chunk of the streamed answer: the whole answer so far is rendered again. */
  text(chunk: string): void {
    if (!this.answer) {
      const element = line('assistant', '');
      this.append(element);
      this.answer = { element, text: '' };
    }
    this.answer.text += chunk;
    this.answer.element.innerHTML = renderMarkdown(this.answer.text);
    this.scroll();
  }

  endAnswer(): void {
    this.answer = undefined;
  }

  tool(id: string, name: string, state: 'running' | 'complete' | 'failed', detail: string): void {
    const mark = state === 'running' ? '…' : state === 'complete' ? '✓' : '✗';
    let element = this.tools.get(id);
    if (!element) {
      this.endAnswer();
      element = line('tool', '');
      element.dataset.id = id;
      this.tools.set(id, element);
      this.append(element);
    }
    element.dataset.state = state;
    element.textContent = `${mark} ${name} ${detail}`;
  }

  note(className: string, text: string): void {
    this.endAnswer();
    this.append(line(className, text));
  }

  /** A question with its buttons; answered (here or elsewhere), it is removed. */
  ask(id: string, kind: 'approval' | 'question', title: string, detail: string | undefined, answer: Answer): void {
    const box = document.createElement('div');
    box.className = kind;
    box.dataset.id = id;
    box.append(line('title', title));
    if (detail !== undefined) {
      const pre = document.createElement('pre');
      pre.textContent = detail;
      box.append(pre);
    }
    for (const [decision, label] of [
      ['allow', 'Allow'],
      ['always', 'Always'],
      ['deny', 'Deny'],
    ] as const) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = label;
      button.dataset.decision = decision;
      button.addEventListener('click', () => answer(id, decision));
      box.append(button);
    }
    this.questions.set(id, box);
    this.endAnswer();
    this.append(box);
  }

  /** The turn is over: an approval it still asked is moot (a cancelled turn refuses them). */
  endTurn(): void {
    this.endAnswer();
    for (const [id, box] of this.questions)
      if (box.className === 'approval') {
        box.remove();
        this.questions.delete(id);
      }
  }

  answered(id: string): void {
    this.questions.get(id)?.remove();
    this.questions.delete(id);
  }

  history(items: readonly HistoryItem[]): void {
    this.clear();
    items.forEach((item, index) => {
      if (item.type === 'user') this.user(item.text ?? '');
      else if (item.type === 'assistant') {
        this.text(item.text ?? '');
        this.endAnswer();
      } else if (item.type === 'tool' && item.call) {
        const failed = item.result?.isError === true;
        this.tool(`saved_${index}`, `${item.call.server}.${item.call.tool}`, failed ? 'failed' : 'complete', '');
      } else this.note(item.type === 'error' ? 'error' : 'info', item.text ?? '');
    });
  }

  private append(element: HTMLElement): void {
    this.log.append(element);
    this.scroll();
  }

  private scroll(): void {
    this.log.scrollTop = this.log.scrollHeight;
  }
}
