/**
 * The tools a native offer lists in the system prompt: one line each, the parameters as a
 * signature, and their servers' instructions cut to a first sentence unless a tool of the server
 * goes as a definition.
 */
import { describe, expect, it } from 'vitest';
import { buildSystemPrompt, listedTool } from '../../../src/engine/system-prompt.js';
import { compactTool } from '../../../src/engine/tool-selection/compact-tool.js';
import { listedTokens, toolTokens } from '../../../src/engine/tool-selection/tool-cost.js';
import { ToolSelection } from '../../../src/engine/tool-selection/tool-selection.js';
import type { ToolSpec } from '../../../src/vocabulary/types.js';
import { manyToolsCatalogue } from '../../helpers/many-tools.js';

const click: ToolSpec = {
  server: 'browser',
  name: 'click',
  description: 'Click an element of the page.\nMore on how it is found.',
  inputSchema: {
    type: 'object',
    properties: {
      target: { type: 'string', description: 'Where to click' },
      button: { type: 'string', enum: ['left', 'right'] },
      edits: {
        type: 'array',
        items: { type: 'object', properties: { oldText: { type: 'string' } }, required: ['oldText'] },
      },
    },
    required: ['target'],
  },
};
const close: ToolSpec = {
  server: 'browser',
  name: 'close',
  description: 'Close the page.',
  inputSchema: { type: 'object' },
};

describe('listed tools', () => {
  it('are one line each: the name, the parameters as a signature (required, optional, values, fields), the description', () => {
    const line =
      '- click(target: string, button?: "left"|"right", edits?: {oldText: string}[]): Click an element of the page.';
    expect(listedTool(click)).toBe(line);
    expect(listedTool(close)).toBe('- close(): Close the page.');
    const prompt = buildSystemPrompt([], 'native', [click, close]);
    expect(prompt).toContain(`## Server "browser"\n${line}\n- close(): Close the page.`);
    // No line a parameter.
    expect(prompt).not.toMatch(/^\s+- target/m);
  });

  it('a line costs less than the same tool with a line a parameter, so more tools fit', () => {
    const bare = compactTool(click, 'bare');
    const heading = listedTokens(bare, new Set()) - listedTokens(bare, new Set(['other']));
    expect(listedTokens(bare, new Set(['browser']))).toBeLessThan(toolTokens(bare, 'json'));
    expect(heading).toBeGreaterThan(0);
  });

  it('carry the first sentence of their server’s instructions; a server with a definition keeps them whole', async () => {
    const catalogue = manyToolsCatalogue();
    const selection = new ToolSelection({ numCtx: 8192, budgetShare: 0.25, alwaysInclude: {} });
    const { tools, listed } = await selection.select(catalogue, 'native', {
      message: 'open example.com and take a screenshot',
      earlier: [],
    });
    const prompt = buildSystemPrompt(tools, 'native', listed);
    const defined = new Set(tools.map((tool) => tool.server));
    const instructed = [...new Set(listed.map((tool) => tool.server))].filter(
      (server) => !defined.has(server) && catalogue.some((tool) => tool.server === server && tool.serverInstructions),
    );
    // The file server and server-everything are only listed here: both say more than one sentence.
    expect(instructed).toEqual(expect.arrayContaining(['file', 'everything']));
    const full = (server: string): string =>
      catalogue.find((tool) => tool.server === server && tool.serverInstructions)?.serverInstructions ?? '';
    expect(prompt).toContain('> Reads and writes files inside /home/user/project.\n');
    expect(prompt).not.toContain(full('file').split('. ')[1] ?? '');
    expect(prompt).not.toContain('Cross-Feature Relationships');
    // Once a tool of server-everything goes as a definition, its instructions are quoted whole.
    const sum = await selection.select(catalogue, 'native', {
      message: 'echo hello through the everything server',
      earlier: [],
    });
    expect(sum.tools.map((tool) => tool.server)).toContain('everything');
    expect(buildSystemPrompt(sum.tools, 'native', sum.listed)).toContain('Cross-Feature Relationships');
  });
});
