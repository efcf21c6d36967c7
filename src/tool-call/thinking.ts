/**
 * Separates a model's inline reasoning from the visible reply: `<think>…</think>` (also
 * `<thinking>`, `<reasoning>` and Seed's `<seed:think>`), Mistral's `[THINK]…[/THINK]`,
 * the pipe-style `<|thinking|>…<|/thinking|>`, Command R7B's `<|START_THINKING|>…<|END_THINKING|>`,
 * DeepSeek's `<｜begin▁of▁thinking｜>…<｜end▁of▁thinking｜>`, Apertus's `<|inner_prefix|>…<|inner_suffix|>`,
 * Kimi K3's `<|open|>think<|sep|>…<|close|>think<|sep|>`,
 * Gemma 4's `<|channel>thought…<channel|>` and gpt-oss's `analysis` channel; Hunyuan Hy3's
 * suffixed tokens (`<think:opensource>`) and MiniMax M3's namespaced ones (`]<]minimax[>[<think>`)
 * are read as the bare ones first. Policy: an
 * unclosed opening tag makes the rest reasoning, and a closing tag with no opener before
 * it makes everything before it reasoning (templates that open the block in the prompt).
 * Nothing in reasoning is a call.
 */
import { splitHarmony } from './harmony.js';
import { withoutMinimaxNamespace } from './minimax-m3.js';
import { withoutTokenSuffixes } from './token-suffix.js';

// One flat alternation, no nested quantifiers: linear on any input. Each group captures
// what marks a closer: 1 `/`, 2 START or END, 3 Gemma 4's closer, 4 and 5 `/`, 6 begin or
// end (DeepSeek's bars full-width or ASCII), 7 prefix or suffix, 8 open or close.
const TAG = new RegExp(
  [
    '<(/?)(?:think|thinking|reasoning|seed:think)>',
    '<\\|(START|END)_THINKING\\|>',
    '<\\|channel>',
    '(<channel\\|>)',
    '\\[(/?)THINK\\]',
    '<\\|(/?)thinking\\|>',
    '<[|\\uFF5C](begin|end)[\\u2581_]of[\\u2581_]thinking[|\\uFF5C]>',
    '<\\|inner_(prefix|suffix)\\|>',
    '<\\|(open|close)\\|>think<\\|sep\\|>',
  ].join('|'),
  'gi',
);
// Gemma 4 names its reasoning channel on the block's first line.
const GEMMA_CHANNEL = /^thought\r?\n/;
const CLOSERS = new Set(['/', 'end', 'suffix', 'close']);

const isClosing = (match: RegExpExecArray): boolean =>
  match[3] !== undefined ||
  [match[1], match[2], match[4], match[5], match[6], match[7], match[8]].some((mark) =>
    CLOSERS.has(mark?.toLowerCase() ?? ''),
  );

export interface ThinkingSplit {
  thinking: string;
  visible: string;
}

export function stripThinking(raw: string): ThinkingSplit {
  const harmony = splitHarmony(withoutMinimaxNamespace(withoutTokenSuffixes(raw)));
  const tagged = stripTagged(harmony.visible);
  return {
    thinking: [...harmony.thinking, tagged.thinking]
      .map((part) => part.trim())
      .filter((part) => part.length > 0)
      .join('\n\n'),
    visible: tagged.visible,
  };
}

function stripTagged(raw: string): ThinkingSplit {
  const thinking: string[] = [];
  const visible: string[] = [];
  let block = '';
  let inside = false;
  let seenOpen = false;
  let from = 0;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(raw); match !== null; match = TAG.exec(raw)) {
    const closing = isClosing(match);
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
      .map((part) => part.trim().replace(GEMMA_CHANNEL, ''))
      .filter((part) => part.length > 0)
      .join('\n\n'),
    visible: visible.join('').trim(),
  };
}
