/** includeTools keeps only those named, then excludeTools drops those named; the rest are named as turned off. */
import { describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { filterTools } from '../../src/mcp/tool-filter.js';

const tools: Tool[] = ['read', 'write', 'delete'].map((name) => ({ name, inputSchema: { type: 'object' } }));
const names = (list: Tool[]): string[] => list.map((tool) => tool.name);

describe('filterTools', () => {
  it('without either key every tool is on', () => {
    expect(filterTools(tools, {})).toEqual({ enabled: tools, disabled: [] });
  });

  it('includeTools keeps only those named; excludeTools then drops those named; a name the server lacks changes nothing', () => {
    const included = filterTools(tools, { includeTools: ['read', 'write', 'nope'] });
    expect(names(included.enabled)).toEqual(['read', 'write']);
    expect(included.disabled).toEqual(['delete']);
    const both = filterTools(tools, { includeTools: ['read', 'write'], excludeTools: ['write'] });
    expect(names(both.enabled)).toEqual(['read']);
    expect(both.disabled).toEqual(['write', 'delete']);
    expect(filterTools(tools, { excludeTools: ['delete'] }).disabled).toEqual(['delete']);
  });
});
