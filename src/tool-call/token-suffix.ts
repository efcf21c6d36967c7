/**
 * Hunyuan's Hy3 and later print their structural tokens with the tokenizer's `token_suffix`:
 * `<tool_calls:opensource>`, `<tool_sep:opensource>`, `<think:opensource>` are single tokens, the
 * same as the bare `<tool_calls>`, `<tool_sep>` and `<think>` of the template (SGLang resolves the
 * suffix from the vocabulary, PR #29920). Read as the bare tokens, every reader knows them; a
 * `<seed:think>` is a name of its own, not a suffixed token.
 */
const SUFFIXED = /<(\/?)(think|answer|tool_calls|tool_call|tool_sep|arg_key|arg_value):[\w.-]+>/g;

export function withoutTokenSuffixes(text: string): string {
  return text.includes(':') ? text.replace(SUFFIXED, '<$1$2>') : text;
}
