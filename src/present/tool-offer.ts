/** One request's tool offer for people: `debug` in the REPL and `ask --debug`. */
import type { OfferReason, ToolOffer } from '../vocabulary/types.js';

/** The reasons in the order the selection applies them. */
const REASONS: OfferReason[] = ['always', 'named', 'found', 'used', 'ranked'];

export function formatToolOffer(offer: ToolOffer): string {
  const cost = `${offer.tokens} of ${offer.budgetTokens} tokens`;
  const form = offer.form === 'short' ? ', short descriptions' : '';
  if (offer.tools.every((tool) => tool.reason === 'all'))
    return `tools offered: all ${offer.catalogue} (${cost}${form})`;
  const listed = offer.tools.filter((tool) => tool.listed).length;
  const where = listed > 0 ? `; ${listed} of them listed in the system prompt, called as text` : '';
  const lines = [`tools offered: ${offer.tools.length} of ${offer.catalogue} (${cost}${form}${where}), and find_tools`];
  for (const reason of REASONS) {
    for (const inPrompt of [false, true]) {
      const tools = offer.tools.filter((tool) => tool.reason === reason && Boolean(tool.listed) === inPrompt);
      if (tools.length === 0) continue;
      const names = tools.map((tool) => (tool.rank === undefined ? tool.name : `${tool.name} #${tool.rank}`));
      lines.push(`  ${reason}${inPrompt ? ', listed' : ''}: ${names.join(', ')}`);
    }
  }
  if (offer.embeddings === 'used') lines.push('  ranked with embeddings');
  else if (offer.embeddings) lines.push(`  embeddings off: ${offer.embeddings.failed}`);
  return lines.join('\n');
}
