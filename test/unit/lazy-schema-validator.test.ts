/**
 * The validator each MCP client gets, and the one each of our servers gets: built on first use,
 * it checks as the SDK's default does; each client keeps its own, so two servers that reuse a
 * schema `$id` for different schemas are each checked against their own. Security: patterns are
 * matched in linear time, and one the linear-time engine cannot take fails the check, saying why.
 */
import { describe, expect, it } from 'vitest';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { validatorOnFirstUse } from '../../servers/shared/validator-on-first-use.js';
import { LazySchemaValidator } from '../../src/mcp/lazy-schema-validator.js';

const numberSchema = { $id: 'urn:example:reading', type: 'object', properties: { value: { type: 'number' } } };
const stringSchema = { $id: 'urn:example:reading', type: 'object', properties: { value: { type: 'string' } } };

const VALIDATORS: Array<[string, () => jsonSchemaValidator]> = [
  ["the client's", () => new LazySchemaValidator()],
  ["a server's", validatorOnFirstUse],
];

describe('validators built on first use', () => {
  it.each(VALIDATORS)('%s accepts what matches the schema and names what does not', (_whose, create) => {
    const validate = create().getValidator(numberSchema);
    expect(validate({ value: 3 })).toEqual({ valid: true, data: { value: 3 }, errorMessage: undefined });
    const result = validate({ value: 'three' });
    expect(result.valid).toBe(false);
    expect(result.errorMessage).toContain('value must be number');
  });

  it("keeps each client's schemas apart, even under one $id", () => {
    const first = new LazySchemaValidator().getValidator(numberSchema);
    const second = new LazySchemaValidator().getValidator(stringSchema);
    expect(first({ value: 3 }).valid).toBe(true);
    expect(second({ value: 'three' }).valid).toBe(true);
    expect(second({ value: 3 }).valid).toBe(false);
  });
});

const patternSchema = (pattern: string): Record<string, unknown> => ({
  type: 'object',
  properties: { word: { type: 'string', pattern } },
});

describe('schema patterns', () => {
  it.each(VALIDATORS)('%s matches patterns as JSON Schema means them (anywhere in the string)', (_whose, create) => {
    const validate = create().getValidator(patternSchema('\\d{4}-\\d{2}'));
    expect(validate({ word: 'due 2024-05' }).valid).toBe(true);
    expect(validate({ word: 'due soon' }).errorMessage).toContain('must match pattern');
  });

  it("the client's refuses a lookahead pattern with a message naming it, instead of backtracking", () => {
    const validate = new LazySchemaValidator().getValidator(patternSchema('^(?=a)a+$'));
    const result = validate({ word: 'aaa' });
    expect(result.valid).toBe(false);
    expect(result.errorMessage).toContain('the output schema cannot be checked');
    expect(result.errorMessage).toContain('"^(?=a)a+$" cannot be matched in linear time');
  });

  it('a catastrophic-backtracking pattern against its worst input answers, and the validator still works', () => {
    const validator = new LazySchemaValidator();
    const validate = validator.getValidator(patternSchema('^(a+)+$'));
    expect(validate({ word: `${'a'.repeat(40)}!` }).valid).toBe(false);
    expect(validate({ word: 'aaaa' }).valid).toBe(true);
  });
});
