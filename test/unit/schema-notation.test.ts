/** Parameter schemas as the text tool lists write them: the fields inside objects and lists named. */
import { describe, expect, it } from 'vitest';
import { typeNotation } from '../../src/engine/schema-notation.js';
import { describeTool } from '../../src/engine/system-prompt.js';
import type { JsonSchemaObject } from '../../src/vocabulary/types.js';

const root = (extra: Record<string, unknown> = {}): JsonSchemaObject => ({ type: 'object', ...extra });

describe('type notation', () => {
  it.each([
    [{ type: 'string' }, 'string'],
    [{ type: ['string', 'null'] }, 'string|null'],
    [{ type: 'array', items: { type: 'string' } }, 'string[]'],
    [{ type: 'array' }, 'any[]'],
    [{ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } }, '(string|number)[]'],
    [{ enum: ['ascending', 'descending'] }, '"ascending"|"descending"'],
    [{ const: 'page_id' }, '"page_id"'],
    [{ anyOf: [{ type: 'string' }, { type: 'string' }, { type: 'object' }] }, 'string|object'],
    [{ type: 'object' }, 'object'],
    [{}, 'any'],
  ])('%j is %s', (schema, notation) => {
    expect(typeNotation(schema, root())).toBe(notation);
  });

  it('names the fields of an object, the optional ones marked', () => {
    const schema = {
      type: 'array',
      items: {
        type: 'object',
        properties: { entityName: { type: 'string' }, observations: { type: 'array', items: { type: 'string' } } },
        required: ['entityName'],
      },
    };
    expect(typeNotation(schema, root())).toBe('{entityName: string, observations?: string[]}[]');
  });

  it('follows $ref into $defs and definitions', () => {
    const sort = { type: 'object', properties: { direction: { enum: ['ascending', 'descending'] } } };
    expect(typeNotation({ $ref: '#/$defs/sort' }, root({ $defs: { sort } }))).toBe(
      '{direction?: "ascending"|"descending"}',
    );
    expect(typeNotation({ $ref: '#/definitions/sort' }, root({ definitions: { sort } }))).toBe(
      '{direction?: "ascending"|"descending"}',
    );
    expect(typeNotation({ $ref: 'https://example.com/schema' }, root())).toBe('object');
  });

  it('stops at three levels, so a schema that refers to itself ends', () => {
    const block = { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/block' } } } };
    const notation = typeNotation({ $ref: '#/$defs/block' }, root({ $defs: { block } }));
    expect(notation).toBe('{children?: {children?: {children?: object[]}[]}[]}');
    const loop = { $ref: '#/$defs/loop' };
    expect(typeNotation(loop, root({ $defs: { loop } }))).toBe('object');
  });
});

describe('a text tool list line', () => {
  it('names the fields inside a parameter, and keeps an enum as "one of"', () => {
    const lines = describeTool({
      server: 'memory',
      name: 'delete_observations',
      description: 'Delete specific observations from entities in the knowledge graph',
      inputSchema: {
        type: 'object',
        properties: {
          deletions: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                entityName: { type: 'string' },
                observations: { type: 'array', items: { type: 'string' } },
              },
              required: ['entityName', 'observations'],
            },
          },
          mode: { type: 'string', enum: ['soft', 'hard'] },
        },
        required: ['deletions'],
      },
    });
    expect(lines).toEqual([
      '- delete_observations: Delete specific observations from entities in the knowledge graph',
      '    - deletions ({entityName: string, observations: string[]}[], required)',
      '    - mode (string, optional, one of "soft", "hard")',
    ]);
  });
});
