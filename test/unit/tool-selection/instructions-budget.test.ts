/** The tool budget counts the servers' instructions the system prompt quotes beside their offered tools. */
import { describe, expect, it } from 'vitest';
import { estimateTextTokens } from '../../../src/engine/conversation.js';
import { toolProtocol } from '../../../src/engine/tool-protocol.js';
import { toolTokens } from '../../../src/engine/tool-selection/tool-cost.js';
import { ToolSelection } from '../../../src/engine/tool-selection/tool-selection.js';
import type { ToolProtocolName, ToolSpec } from '../../../src/vocabulary/types.js';
import { manyToolsCatalogue } from '../../helpers/many-tools.js';

/** Near the most a server's instructions may be (`MAX_INSTRUCTIONS_CHARS`), different per server. */
const instructionsOf = (server: string): string =>
  `Notes from ${server}:\n${`Prefer the ${server} tools for this server's own data, and say which one you used. `.repeat(12)}`;

const withInstructions = (tools: ToolSpec[]): ToolSpec[] =>
  tools.map((tool) => ({ ...tool, serverInstructions: instructionsOf(tool.server) }));
function withoutInstructions(tools: ToolSpec[]): ToolSpec[] {
  return tools.map((tool) => {
    const copy = { ...tool };
    delete copy.serverInstructions;
    return copy;
  });
}

const select = (catalogue: ToolSpec[], protocol: ToolProtocolName, message: string) =>
  new ToolSelection({ numCtx: 8192, budgetShare: 0.25, alwaysInclude: {} }).select(catalogue, protocol, {
    message,
    earlier: [],
  });

/**
 * What the offer puts in the request: its tools as they are priced, and what the instructions (and,
 * natively, the listed tools) add to the system prompt.
 */
function requestTokens(protocol: ToolProtocolName, tools: ToolSpec[], listed: ToolSpec[]): number {
  const prompt = toolProtocol(protocol);
  const own = tools.reduce((sum, tool) => sum + toolTokens(tool, protocol), 0);
  const stripped = withoutInstructions(tools);
  const added =
    estimateTextTokens(prompt.systemPrompt(tools, listed)) -
    estimateTextTokens(protocol === 'native' ? prompt.systemPrompt(stripped, []) : prompt.systemPrompt(stripped));
  return own + added;
}

describe('the tool budget and server instructions', () => {
  const catalogue = withInstructions(manyToolsCatalogue());
  const requests = ['open example.com and take a screenshot', 'remember that my sister Ana lives in Porto'];

  it.each(requests)(
    'natively, "%s": the definitions and the whole system prompt stay within a quarter of num_ctx 8192',
    async (message) => {
      const { tools, listed, offer } = await select(catalogue, 'native', message);
      const quoted = [...new Set(offer.tools.map((tool) => tool.name.split('.')[0]))];
      expect(quoted.length).toBeGreaterThan(1);
      const prompt = toolProtocol('native').systemPrompt(tools, listed);
      for (const server of quoted) expect(prompt).toContain(`Notes from ${server}:`);
      expect(requestTokens('native', tools, listed)).toBeLessThanOrEqual(offer.budgetTokens);
      expect(offer.tokens).toBeLessThanOrEqual(offer.budgetTokens);
      // What the prompt carries is said apart, so the context check does not count it twice.
      const definitions = tools.reduce((sum, tool) => sum + toolTokens(tool, 'native'), 0);
      expect(definitions + (offer.listedTokens ?? 0)).toBe(offer.tokens);
    },
  );

  it.each(requests)(
    'in json mode, "%s": the tool list with its instructions stays within the budget',
    async (message) => {
      const { tools, listed, offer } = await select(catalogue, 'json', message);
      expect(requestTokens('json', tools, listed)).toBeLessThanOrEqual(offer.budgetTokens);
      expect(offer.tokens).toBeLessThanOrEqual(offer.budgetTokens);
    },
  );

  it('the instructions cost tools: fewer are offered than when the servers give none', async () => {
    const message = requests[0] ?? '';
    const bare = await select(manyToolsCatalogue(), 'native', message);
    const noted = await select(catalogue, 'native', message);
    expect(noted.offer.tools.length).toBeLessThan(bare.offer.tools.length);
  });

  it('a catalogue that fits only without its instructions is ranked, not sent whole', async () => {
    const small = manyToolsCatalogue().filter((tool) => ['calculator', 'research', 'file'].includes(tool.server));
    const fits = await select(small, 'native', 'hello');
    expect(fits.offer.tools.every((tool) => tool.reason === 'all')).toBe(true);
    const room = fits.offer.budgetTokens - fits.offer.tokens;
    const heavy = small.map((tool) => ({ ...tool, serverInstructions: 'Read the notes first. '.repeat(room / 4) }));
    const { tools, listed, offer } = await select(heavy, 'native', 'hello');
    expect(offer.tokens).toBeLessThanOrEqual(offer.budgetTokens);
    expect(requestTokens('native', tools, listed)).toBeLessThanOrEqual(offer.budgetTokens);
  });
});
