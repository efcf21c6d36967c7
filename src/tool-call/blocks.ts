/**
 * Runs every reader of a model family's own call format over the reply: gpt-oss harmony,
 * DeepSeek and Kimi tokens, GLM and Qwen3-Coder tags, MiniMax/Anthropic/DSML invokes,
 * Gemma, the XML forms (ours and Cline's), Apertus's and Olmo 3's wrapped bodies, and
 * Kimi K3's XTML.
 * Policy: blocks never overlap (the first wins); a block inside a code fence of another
 * language is code to show, and one that starts inside a JSON value is that value's data.
 */
import type { Block } from './block.js';
import { findGemmaCalls, findToolCodeCalls } from './gemma.js';
import { findHarmonyCalls } from './harmony.js';
import { findInvokeCalls } from './invoke-calls.js';
import { parseJsonLoose } from './json-repair.js';
import { type Span, spanAt } from './json-scan.js';
import { CALL_FENCES, type Fence } from './markers.js';
import { findTokenCalls } from './special-tokens.js';
import { findGlmCalls, findQwenCoderCalls } from './tag-calls.js';
import { findWrappedCalls } from './wrapped-calls.js';
import { findXmlCalls } from './xml-calls.js';
import { findXtmlCalls } from './xtml-calls.js';

function allowedByFence(block: Block, fences: Fence[]): boolean {
  const fence = spanAt(fences, block.start);
  if (!fence || block.start < fence.open.end) return true;
  return CALL_FENCES.has(fence.lang) || (block.xml === true && fence.lang === 'xml');
}

/** Whether the block starts inside a bracket span that is valid JSON (`"content": "<tool_call>…"`). */
function insideJson(text: string, block: Block, spans: Span[], memo: Map<number, boolean>): boolean {
  const span = spanAt(spans, block.start);
  if (!span || span.start === block.start) return false;
  let json = memo.get(span.start);
  if (json === undefined) {
    json = parseJsonLoose(text.slice(span.start, span.end)).ok;
    memo.set(span.start, json);
  }
  return json;
}

/** The block readers, named by the format each reads. */
const READERS = {
  harmony: findHarmonyCalls,
  tokens: findTokenCalls,
  glm: findGlmCalls,
  'qwen-xml': findQwenCoderCalls,
  invoke: findInvokeCalls,
  gemma: findGemmaCalls,
  'tool-code': findToolCodeCalls,
  xml: findXmlCalls,
  wrapped: findWrappedCalls,
  xtml: findXtmlCalls,
} satisfies Record<string, (text: string, fences: Fence[]) => Block[]>;

export type ReaderId = keyof typeof READERS;

/** `preferred`: the reader of the model's own template format; its blocks are marked. */
export function findBlocks(text: string, fences: Fence[], spans: Span[], preferred?: ReaderId): Block[] {
  const found = Object.entries(READERS)
    .flatMap(([id, read]) => {
      const blocks = read(text, fences);
      return id === preferred ? blocks.map((block) => ({ ...block, preferred: true })) : blocks;
    })
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Block[] = [];
  const memo = new Map<number, boolean>();
  for (const block of found) {
    const last = kept.at(-1);
    if (last && block.start < last.end) continue;
    if (!allowedByFence(block, fences) || insideJson(text, block, spans, memo)) continue;
    kept.push(block);
  }
  return kept;
}
