/** The `tools` section and the per-server `alwaysInclude`: the catalogue's budget, the embedding model. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { configErrorOf, useConfigDir } from '../helpers/config-dir.js';

const { write, options } = useConfigDir();

function load(content: unknown): ReturnType<typeof loadConfig> {
  return loadConfig(options({ configPath: write('proj/mcp_config.json', content) }));
}

const withTools = (tools: unknown) => ({ mcpServers: {}, tools });
const messageFor = (content: unknown): string => configErrorOf(() => load(content)).message;

describe('config: the tool budget', () => {
  it('defaults to a quarter of num_ctx, no embedding model', () => {
    expect(load({ mcpServers: {} }).tools).toEqual({ maxParallel: 4, budgetShare: 0.25 });
  });

  it('takes a fraction or a percentage, and an embedding model', () => {
    expect(load(withTools({ budget: 0.4, embed_model: 'nomic-embed-text' })).tools).toEqual({
      maxParallel: 4,
      budgetShare: 0.4,
      embedModel: 'nomic-embed-text',
    });
    expect(load(withTools({ budget: '15%' })).tools.budgetShare).toBeCloseTo(0.15);
    expect(load(withTools({ budget: '100 %' })).tools.budgetShare).toBe(1);
  });

  it.each([
    [0, 'tools.budget'],
    [1.5, 'expected a number <= 1'],
    ['0%', 'a percentage above 0'],
    ['150%', 'at most 100'],
    ['a quarter', 'a percentage such as "25%"'],
  ])('refuses the budget %j, naming the field', (budget, expected) => {
    const message = messageFor(withTools({ budget }));
    expect(message).toContain('tools.budget');
    expect(message).toContain(expected);
  });

  it('keeps each server’s alwaysInclude', () => {
    const config = load({ mcpServers: { notion: { command: 'notion-mcp', alwaysInclude: ['API-post-search'] } } });
    expect(config.servers[0]?.alwaysInclude).toEqual(['API-post-search']);
  });

  it('refuses a server named like mcp-chat’s own tools, which would shadow find_tools', () => {
    expect(messageFor({ mcpServers: { 'MCP-Chat': { command: 'x' } } })).toContain(
      '"mcp-chat" names mcp-chat\'s own tools: pick another name',
    );
  });
});
