/** The short form of a tool: less to read, the same calls possible. */
import { describe, expect, it } from 'vitest';
import { compactTool, firstSentence } from '../../../src/engine/tool-selection/compact-tool.js';
import type { JsonSchemaObject } from '../../../src/vocabulary/types.js';
import { manyToolsCatalogue } from '../../helpers/many-tools.js';

/**
 * Every parameter's name, type, enum, const and `required`, at any depth: what a valid call depends on.
 * Written the way JSON Schema reads it: `required: []` is no requirement, and an `anyOf` alternative
 * given twice allows nothing more than once.
 */
function callShape(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(callShape);
  if (typeof schema !== 'object' || schema === null) return schema;
  const kept = ['type', 'enum', 'const', 'required', '$ref', 'properties', 'items', 'anyOf', 'oneOf', 'allOf'];
  return Object.fromEntries(
    Object.entries(schema).flatMap(([key, value]) => {
      if (key === 'properties')
        return [[key, Object.fromEntries(Object.entries(value as object).map(([n, s]) => [n, callShape(s)]))]];
      if (key === 'required' && Array.isArray(value) && value.length === 0) return [];
      if (key === 'anyOf') return [[key, [...new Set((callShape(value) as unknown[]).map((v) => JSON.stringify(v)))]]];
      return kept.includes(key) ? [[key, callShape(value)]] : [];
    }),
  );
}

describe('compactTool', () => {
  const catalogue = manyToolsCatalogue();

  it('keeps every parameter name, type, enum and required of all the recorded tools, short and bare', () => {
    for (const tool of catalogue) {
      const short = compactTool(tool);
      const bare = compactTool(tool, 'bare');
      expect(callShape(short.inputSchema), `${tool.server}.${tool.name}`).toEqual(callShape(tool.inputSchema));
      expect(callShape(bare.inputSchema), `${tool.server}.${tool.name}`).toEqual(callShape(tool.inputSchema));
      expect(short.description.length).toBeLessThanOrEqual(200);
    }
  });

  it("drops what restates JSON Schema's defaults, and keeps the constraints a call must meet", () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: {
        count: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        offset: { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: 100 },
        body: { anyOf: [{ type: 'string' }, { type: 'string' }, { type: 'object', additionalProperties: true }] },
        strict: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
        required: { type: 'boolean', default: false },
      },
      required: [],
    };
    const short = compactTool({ server: 's', name: 't', description: 'Does it.', inputSchema: schema });
    expect(short.inputSchema).toEqual({
      type: 'object',
      properties: {
        count: { type: 'integer', minimum: 1 },
        offset: { type: 'integer', maximum: 100 },
        body: { anyOf: [{ type: 'string' }, { type: 'object' }] },
        strict: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
        required: { type: 'boolean', default: false },
      },
    });
  });

  it('the bare form leaves out defaults, the short form keeps them', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: { level: { type: 'string', enum: ['info', 'error'], default: 'info', description: 'How loud.' } },
      required: ['level'],
    };
    const tool = { server: 's', name: 't', description: 'Logs.', inputSchema: schema };
    expect(compactTool(tool, 'short').inputSchema.properties).toEqual({
      level: { type: 'string', enum: ['info', 'error'], default: 'info', description: 'How loud.' },
    });
    expect(compactTool(tool, 'bare').inputSchema).toEqual({
      type: 'object',
      properties: { level: { type: 'string', enum: ['info', 'error'] } },
      required: ['level'],
    });
  });

  it('keeps a $defs entry whatever its name, and cleans inside it too', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: { x: { $ref: '#/$defs/required' } },
      $defs: { required: { type: 'object', additionalProperties: true, required: [] } },
    };
    const short = compactTool({ server: 's', name: 't', description: 'X.', inputSchema: schema });
    expect(short.inputSchema.$defs).toEqual({ required: { type: 'object' } });
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
