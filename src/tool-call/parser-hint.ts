/**
 * Maps the template parser Ollama names for a model (`parser` in `/api/show`, v0.32.2) to
 * the reader of that format. Policy: a hint only: an unknown or absent name, or a parser
 * whose format is read from JSON spans rather than blocks, leaves detection as it is.
 */
import type { ReaderId } from './blocks.js';

// Names as ollama/ollama model/parsers/parsers.go registers them (minimaxm2, apertus1.5 and
// deepseek: as the commits adding those parsers name them).
const BY_PARSER: Record<string, ReaderId> = {
  harmony: 'harmony',
  deepseek3: 'tokens',
  cogito: 'tokens',
  'glm-4.7': 'glm',
  laguna: 'glm',
  'poolside-v1': 'glm',
  'qwen3-coder': 'qwen-xml',
  'qwen3.5': 'qwen-xml',
  ornith: 'qwen-xml',
  'nemotron-3-nano': 'qwen-xml',
  'nemotron-3.5-nano': 'qwen-xml',
  gemma4: 'gemma',
  'gemma4-no-thinking': 'gemma',
  functiongemma: 'gemma',
  glimmer: 'invoke',
  minimaxm2: 'invoke',
  'apertus1.5': 'wrapped',
  deepseek: 'tokens',
  olmo3: 'wrapped',
  'olmo3-think': 'wrapped',
};

export function readerForParser(parser: string | undefined): ReaderId | undefined {
  return parser !== undefined && Object.hasOwn(BY_PARSER, parser) ? BY_PARSER[parser] : undefined;
}
