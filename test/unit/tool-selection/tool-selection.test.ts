/** Which tools a request offers: the budget, the short form, the ranking, the pinned tools and `find_tools`. */
import { describe, expect, it } from 'vitest';
import { compactTool } from '../../../src/engine/tool-selection/compact-tool.js';
import { EmbeddingRanker, type TextEmbedder } from '../../../src/engine/tool-selection/embedding-ranker.js';
import { catalogueInstructionsTokens, toolTokens } from '../../../src/engine/tool-selection/tool-cost.js';
import { ToolSelection, type ToolSelectionOptions } from '../../../src/engine/tool-selection/tool-selection.js';
import { rankTools } from '../../../src/engine/tool-selection/tool-ranking.js';
import { estimateTextTokens } from '../../../src/engine/conversation.js';
import { displayName } from '../../../src/vocabulary/tool-naming.js';
import { toolProtocol } from '../../../src/engine/tool-protocol.js';
import type { ToolSpec } from '../../../src/vocabulary/types.js';
import { silentLogger } from '../../../src/shared/log.js';
import { manyToolsCatalogue } from '../../helpers/many-tools.js';

const catalogue = manyToolsCatalogue();
const ask = (message: string, earlier: string[] = []) => ({ message, earlier });

function withoutInstructions(tool: ToolSpec): ToolSpec {
  const copy = { ...tool };
  delete copy.serverInstructions;
  return copy;
}

function selection(options: Partial<ToolSelectionOptions> = {}): ToolSelection {
  return new ToolSelection({ numCtx: 8192, budgetShare: 0.25, alwaysInclude: {}, ...options });
}

describe('tool selection', () => {
  it('offers the whole catalogue, as the servers describe it, when it fits the budget', async () => {
    const small = catalogue.filter((tool) => tool.server === 'calculator' || tool.server === 'research');
    const { tools, offer, findTools } = await selection().select(small, 'native', ask('hello'));
    expect(tools).toBe(small);
    expect(findTools).toBeUndefined();
    expect(offer).toMatchObject({ catalogue: 3, form: 'full', budgetTokens: 2048 });
    expect(offer.tools.every((tool) => tool.reason === 'all')).toBe(true);
  });

  it('shortens descriptions before it leaves tools out: every tool fits at num_ctx 65536 in its short form', async () => {
    const { tools, offer } = await selection({ numCtx: 65_536 }).select(catalogue, 'native', ask('hello'));
    expect(offer.form).toBe('short');
    expect(tools).toHaveLength(catalogue.length);
    expect(offer.tokens).toBeLessThanOrEqual(offer.budgetTokens);
    // The servers' instructions, quoted in the system prompt, count beside the definitions.
    const definitions = tools.reduce((sum, tool) => sum + toolTokens(tool, 'native'), 0);
    expect(definitions + catalogueInstructionsTokens(tools, 'native')).toBe(offer.tokens);
  });

  it('over the budget: the ranked tools that fit, then find_tools, within 25 % of num_ctx 8192', async () => {
    const { tools, offer, findTools } = await selection().select(
      catalogue,
      'native',
      ask('open example.com and take a screenshot'),
    );
    expect(tools.at(-1)).toBe(findTools);
    expect(findTools?.description).toContain(`only ${offer.tools.length} of the ${catalogue.length} available tools`);
    expect(findTools?.description).toContain('(servers: calculator, file, research, memory, sequential-thinking,');
    // Its best few tools come from several servers: the ranking is unsure, and the offer takes 15 % more.
    expect(offer.budgetTokens).toBe(Math.floor(2048 * 1.15));
    expect(tools.reduce((sum, tool) => sum + toolTokens(tool, 'native'), 0)).toBeLessThanOrEqual(offer.budgetTokens);
    expect(offer.tokens).toBeLessThanOrEqual(offer.budgetTokens);
    expect(offer.tools[0]).toEqual({ name: 'playwright.browser_take_screenshot', reason: 'ranked', rank: 1 });
    expect(offer.tools.length).toBeLessThan(catalogue.length);
  });

  it('natively lists the tools past the first few in the system prompt, and counts what the lines take', async () => {
    const { tools, listed, offer } = await selection().select(
      catalogue,
      'native',
      ask('open example.com and take a screenshot'),
    );
    // The likeliest (five at most) as definitions, and find_tools; the rest are lines, flagged in the offer in the same order.
    expect(tools.length).toBeGreaterThan(1);
    expect(tools.length).toBeLessThanOrEqual(6);
    expect(listed.length).toBeGreaterThan(10);
    expect(offer.tools.filter((tool) => tool.listed).map((tool) => tool.name)).toEqual(listed.map(displayName));
    const protocol = toolProtocol('native');
    const withLines = estimateTextTokens(protocol.systemPrompt(tools, listed));
    // The listed tokens are the lines and every offered server's instructions.
    const without = estimateTextTokens(protocol.systemPrompt(tools.map(withoutInstructions)));
    // Each piece is rounded up on its own, so the count may run a token a piece over, never under.
    expect(offer.listedTokens).toBeGreaterThanOrEqual(withLines - without);
    expect(offer.listedTokens).toBeLessThanOrEqual(withLines - without + listed.length + 10);
    const definitions = tools.reduce((sum, tool) => sum + toolTokens(tool, 'native'), 0);
    expect(definitions + (offer.listedTokens ?? 0)).toBe(offer.tokens);
    expect(offer.tokens).toBeLessThanOrEqual(offer.budgetTokens);
    // Text modes list every tool already: nothing is set apart.
    expect((await selection().select(catalogue, 'json', ask('open example.com'))).listed).toEqual([]);
  });

  it.each([
    'open example.com and take a screenshot',
    'echo back hello world',
    'remember that my sister Ana lives in Porto',
    'find my Notion page called Q3 planning',
  ])('at num_ctx 8192 the model reads at most 10,000 characters of tools and system prompt: "%s"', async (message) => {
    const { tools, listed } = await selection().select(catalogue, 'native', ask(message));
    const protocol = toolProtocol('native');
    const prompt = protocol.systemPrompt(tools, listed);
    expect(prompt.length + JSON.stringify(protocol.offer(tools)).length).toBeLessThanOrEqual(10_000);
  });

  it('text modes pay for the catalogue lines, not JSON definitions; natively the listed tools, one line each, fit more', async () => {
    const request = ask('open example.com and take a screenshot');
    const native = await selection().select(catalogue, 'native', request);
    const json = await selection().select(catalogue, 'json', request);
    const definitions = native.offer.tools.filter((tool) => !tool.listed).length;
    expect(json.offer.tools.length).toBeGreaterThan(definitions);
    expect(json.offer.tokens).toBeLessThanOrEqual(json.offer.budgetTokens);
    // A text-mode catalogue gives each parameter a line; the native prompt lists a tool on one.
    expect(native.offer.tools.length).toBeGreaterThan(json.offer.tools.length);
  });

  it('keeps a request whose ranking is sure of the server within 25 %; one unsure takes up to 15 % more', async () => {
    const sure = await selection().select(catalogue, 'native', ask('take a screenshot of the page'));
    expect(sure.offer.budgetTokens).toBe(2048);
    expect(sure.offer.tokens).toBeLessThanOrEqual(2048);
    // "open" is also a memory tool's word, "echo" and "back" other servers': the best few span three servers.
    const unsure = await selection().select(catalogue, 'native', ask('echo back hello world'));
    expect(unsure.offer.budgetTokens).toBe(Math.floor(2048 * 1.15));
    expect(unsure.offer.tokens).toBeGreaterThan(2048);
    expect(unsure.offer.tools.length).toBeGreaterThan(sure.offer.tools.length);
  });

  it('describes only the ranked tools that score near the best; the others go bare, so more fit', async () => {
    const request = ask('take a screenshot of the page');
    const { tools, offer } = await selection().select(catalogue, 'native', request);
    const ranking = await rankTools(catalogue, request);
    const defined = tools.slice(0, -1).map(displayName);
    expect(defined[0]).toBe('playwright.browser_take_screenshot');
    expect(defined.length).toBeLessThan(5);
    expect(defined).toEqual(offer.tools.filter((tool) => !tool.listed).map((tool) => tool.name));
    const likely = new Set([...ranking.likely].map(displayName));
    for (const name of defined) expect(likely.has(name)).toBe(true);
  });

  it('always offers what the config always includes, the tools the message names, and those used before', async () => {
    const chooser = selection({ alwaysInclude: { notion: ['API-get-self'], memory: ['no-such-tool'] } });
    chooser.noteUsed({ server: 'memory', tool: 'read_graph' });
    const { offer } = await chooser.select(catalogue, 'native', ask('compute 2+2, or ask everything.echo to say it'));
    expect(offer.tools.slice(0, 3)).toEqual([
      { name: 'notion.API-get-self', reason: 'always' },
      { name: 'everything.echo', reason: 'named' },
      { name: 'memory.read_graph', reason: 'used' },
    ]);
    chooser.clear();
    const after = await chooser.select(catalogue, 'native', ask('compute 2+2'));
    expect(after.offer.tools.filter((tool) => tool.reason === 'used')).toEqual([]);
  });

  it('describes the parameters of the first tools only while one takes at most a tenth of the budget', async () => {
    const { tools } = await selection().select(
      catalogue,
      'native',
      ask('use browser_press_key, then API-update-page-markdown'),
    );
    const byName = (name: string): ToolSpec => catalogue.find((tool) => displayName(tool) === name) as ToolSpec;
    const pressKey = byName('playwright.browser_press_key');
    const markdown = byName('notion.API-update-page-markdown');
    expect(toolTokens(compactTool(markdown), 'native')).toBeGreaterThan(2048 / 10);
    expect(tools.slice(0, 2)).toEqual([compactTool(pressKey, 'short'), compactTool(markdown, 'bare')]);
  });

  it('ranks the best matches of the servers the session used higher', async () => {
    const earlier = ['open duckduckgo.com', "type 'weather in Lisbon' in the search box"];
    const rankOf = async (chooser: ToolSelection): Promise<number | undefined> => {
      const { offer } = await chooser.select(catalogue, 'native', ask('hit enter', earlier));
      return offer.tools.find((tool) => tool.name === 'playwright.browser_press_key')?.rank;
    };
    const inSession = selection();
    inSession.noteUsed({ server: 'playwright', tool: 'browser_navigate' });
    inSession.noteUsed({ server: 'playwright', tool: 'browser_type' });
    const alone = (await rankOf(selection())) ?? Infinity;
    expect(await rankOf(inSession)).toBeLessThan(Math.min(alone, 6));
  });

  it('a prompt or resource that names a tool (`get-sum`, `read_text_file`) gets it offered; a plain word does not', async () => {
    const prompt = 'Add the two numbers with get-sum, then save the result using read_text_file. Evaluate it.';
    const { offer } = await selection().select(catalogue, 'native', ask(prompt));
    const named = offer.tools.filter((tool) => tool.reason === 'named').map((tool) => tool.name);
    expect(named).toEqual(['filesystem.read_text_file', 'everything.get-sum']);
    const partOfWord = await selection().select(catalogue, 'native', ask('no forget-sum or xread_text_file here'));
    expect(partOfWord.offer.tools.filter((tool) => tool.reason === 'named')).toEqual([]);
  });

  it('find_tools returns the best matches not offered yet, and they are offered from the next request on', async () => {
    const chooser = selection();
    const first = await chooser.select(catalogue, 'native', ask('what is on my todo list?'));
    const offered = first.offer.tools.map((tool) => tool.name);
    expect(offered).not.toContain('notion.API-create-a-comment');
    const query = { query: 'comment on a page' };
    const result = await chooser.find({ server: 'mcp-chat', tool: 'find_tools', arguments: query });
    expect(result.isError).toBe(false);
    expect(result.forModel).toMatch(/^Found \d tools; they are offered from your next step on:\n- notion\./);
    expect(result.forModel).toContain('notion.API-create-a-comment');
    for (const name of offered) expect(result.forModel).not.toContain(`- ${name}:`);
    const next = await chooser.select(catalogue, 'native', ask('what is on my todo list?'));
    expect(next.offer.tools).toContainEqual({ name: 'notion.API-create-a-comment', reason: 'found' });
  });

  it('find_tools without a query is an error the model can act on', async () => {
    const chooser = selection();
    await chooser.select(catalogue, 'native', ask('hello'));
    const result = await chooser.find({ server: 'mcp-chat', tool: 'find_tools', arguments: {} });
    expect(result).toMatchObject({ isError: true });
    expect(result.forModel).toContain('"query"');
  });
});

/** Counts what it is asked to embed; vectors from the words, so similar texts are similar. */
class CountingEmbedder implements TextEmbedder {
  readonly model = 'nomic-embed-text';
  readonly batches: string[][] = [];
  failWith: string | undefined;

  async embed(texts: string[]): Promise<number[][]> {
    if (this.failWith !== undefined) throw new Error(this.failWith);
    this.batches.push(texts);
    return texts.map((text) => {
      const words = text.toLowerCase();
      return ['screenshot', 'remember', 'page', 'file'].map((word) => (words.includes(word) ? 1 : 0.01));
    });
  }
}

describe('tool selection with embeddings', () => {
  it('embeds each tool once, then only new requests; the offer says embeddings ranked it', async () => {
    const embedder = new CountingEmbedder();
    const chooser = selection({ embeddings: new EmbeddingRanker(embedder, silentLogger) });
    const first = await chooser.select(catalogue, 'native', ask('remember that Ana lives in Porto'));
    const second = await chooser.select(catalogue, 'native', ask('remember that Ana lives in Porto'));
    await chooser.select(catalogue, 'native', ask('take a screenshot'));
    expect(embedder.batches.map((batch) => batch.length).sort((a, b) => a - b)).toEqual([1, 1, catalogue.length]);
    expect(first.offer.embeddings).toBe('used');
    expect(second.offer.tools).toEqual(first.offer.tools);
  });

  it('a failing embedding model is reported in the offer and the ranking goes on by words', async () => {
    const embedder = new CountingEmbedder();
    embedder.failWith = 'model "nomic-embed-text" not found, try pulling it first';
    const chooser = selection({ embeddings: new EmbeddingRanker(embedder, silentLogger) });
    const { offer } = await chooser.select(catalogue, 'native', ask('take a screenshot'));
    expect(offer.embeddings).toEqual({ failed: 'model "nomic-embed-text" not found, try pulling it first' });
    expect(offer.tools[0]).toMatchObject({ name: 'playwright.browser_take_screenshot' });
  });

  it('keeps vectors in the store it is given, so the next run embeds nothing it has seen', async () => {
    const saved = new Map<string, number[]>();
    const store = {
      load: async () => new Map(saved),
      save: async (vectors: Map<string, number[]>) => void vectors.forEach((v, k) => saved.set(k, v)),
    };
    const firstRun = new CountingEmbedder();
    await selection({ embeddings: new EmbeddingRanker(firstRun, silentLogger, store) }).select(
      catalogue,
      'native',
      ask('x'),
    );
    const secondRun = new CountingEmbedder();
    await selection({ embeddings: new EmbeddingRanker(secondRun, silentLogger, store) }).select(
      catalogue,
      'native',
      ask('y'),
    );
    expect(saved.size).toBe(catalogue.length);
    expect(secondRun.batches).toEqual([['y']]);
  });
});
