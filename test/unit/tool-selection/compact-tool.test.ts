/** The short form of a tool: less to read, the same calls possible. */
import { describe, expect, it } from 'vitest';
import { compactTool, firstSentence } from '../../../src/chat/tool-selection/compact-tool.js';
import type { JsonSchemaObject } from '../../../src/chat/types.js';
import { manyToolsCatalogue } from '../../helpers/many-tools.js';

/** Every parameter's name, type, enum, const and `required`, at any depth: what a valid call depends on. */
function callShape(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(callShape);
  if (typeof schema !== 'object' || schema === null) return schema;
  const kept = ['type', 'enum', 'const', 'required', '$ref', 'properties', 'items', 'anyOf', 'oneOf', 'allOf'];
  return Object.fromEntries(
    Object.entries(schema).flatMap(([key, value]) => {
      if (key === 'properties')
        return [[key, Object.fromEntries(Object.entries(value as object).map(([n, s]) => [n, callShape(s)]))]];
      return kept.includes(key) ? [[key, callShape(value)]] : [];
    }),
  );
}

describe('compactTool', () => {
  const catalogue = manyToolsCatalogue();

  it('keeps every parameter name, type, enum and required of all the recorded tools', () => {
    for (const tool of catalogue) {
      const short = compactTool(tool);
      expect(callShape(short.inputSchema), `${tool.server}.${tool.name}`).toEqual(callShape(tool.inputSchema));
      expect(short.description.length).toBeLessThanOrEqual(200);
    }
  });

  it('drops the $defs nothing refers to, and keeps those reached through other definitions', () => {
    const postPage = catalogue.find((tool) => tool.name === 'API-post-page');
    const defs = compactTool(postPage as never).inputSchema.$defs as Record<string, unknown>;
    expect(Object.keys(defs).sort()).toEqual(['dataSourceIdParentRequest', 'pageIdParentRequest', 'parentRequest']);
    expect(Object.keys(postPage?.inputSchema.$defs as object).length).toBeGreaterThan(3);
  });

  it('keeps a parameter called "title" while dropping schema titles', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      title: 'Args',
      properties: { title: { type: 'string', title: 'The title' } },
      required: ['title'],
    };
    const short = compactTool({ server: 's', name: 't', description: 'Makes a page.', inputSchema: schema });
    expect(short.inputSchema).toEqual({
      type: 'object',
      properties: { title: { type: 'string' } },
      required: ['title'],
    });
  });
});

describe('firstSentence', () => {
  it.each([
    ['Notion | Create a page\nError Responses:\n400: Bad request', 'Notion | Create a page'],
    ['Reads a file. Use it for text.', 'Reads a file.'],
    ['Searches the\nweb for pages. More.', 'Searches the web for pages.'],
    ['See [the docs](https://example.com/x) first.', 'See the docs first.'],
  ])('%j → %j', (text, expected) => {
    expect(firstSentence(text, 200)).toBe(expected);
  });

  it('cuts a long sentence at a word, with an ellipsis', () => {
    const cut = firstSentence(`${'word '.repeat(60)}end.`, 50);
    expect(cut.length).toBeLessThanOrEqual(50);
    expect(cut).toMatch(/word…$/);
  });
});
