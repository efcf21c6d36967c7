/**
 * Separates a model's inline reasoning (`<think>…</think>`, also `<thinking>` and
 * `<reasoning>`) from the visible reply. Policy: an unclosed opening tag makes the rest
 * reasoning, and a closing tag with no opener before it makes everything before it
 * reasoning (templates that open the block in the prompt). Nothing in reasoning is a call.
 */

// One flat alternation, no nested quantifiers: linear on any input.
const TAG = /<(\/?)(?:think|thinking|reasoning)>/gi;

export interface ThinkingSplit {
  thinking: string;
  visible: string;
}

export function stripThinking(raw: string): ThinkingSplit {
  const thinking: string[] = [];
  const visible: string[] = [];
  let block = '';
  let inside = false;
  let seenOpen = false;
  let from = 0;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(raw); match !== null; match = TAG.exec(raw)) {
    const closing = match[1] === '/';
    const before = raw.slice(from, match.index);
    from = match.index + match[0].length;
    if (inside) {
      // A nested opener stays part of the block; the first closer ends it.
      block += before;
      if (!closing) continue;
      thinking.push(block);
      block = '';
      inside = false;
    } else if (!closing) {
      visible.push(before);
      inside = true;
      seenOpen = true;
    } else if (!seenOpen) {
      // A lone closing tag: the template opened the block, so what came before is reasoning.
      thinking.push(before);
      seenOpen = true;
    } else {
      visible.push(before);
    }
  }
  if (inside) thinking.push(block + raw.slice(from));
  else visible.push(raw.slice(from));
  return {
    thinking: thinking
      .map((part) => part.trim())
      .filter((part) => part.length > 0)
      .join('\n\n'),
    visible: visible.join('').trim(),
  };
}
