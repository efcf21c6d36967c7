/**
 * The validator each MCP client gets, and the one each of our servers gets: built on first use
 * (the client's loads its engine in the background, and a call waits for `ready()`), it checks as
 * the SDK's default does; each client keeps its own, so two servers that reuse a
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

type Check = ReturnType<jsonSchemaValidator['getValidator']>;

/** A check of `schema`, once it can be made: the client's engine loads as the first schema is given. */
async function checkOf(validator: jsonSchemaValidator, schema: Record<string, unknown>): Promise<Check> {
  const check = validator.getValidator(schema);
  if (validator instanceof LazySchemaValidator) await validator.ready();
  return check;
}

describe('validators built on first use', () => {
  it.each(VALIDATORS)('%s accepts what matches the schema and names what does not', async (_whose, create) => {
    const validate = await checkOf(create(), numberSchema);
    expect(validate({ value: 3 })).toEqual({ valid: true, data: { value: 3 }, errorMessage: undefined });
    const result = validate({ value: 'three' });
    expect(result.valid).toBe(false);
    expect(result.errorMessage).toContain('value must be number');
  });

  it("keeps each client's schemas apart, even under one $id", async () => {
    const first = await checkOf(new LazySchemaValidator(), numberSchema);
    const second = await checkOf(new LazySchemaValidator(), stringSchema);
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
  it.each(VALIDATORS)(
    '%s matches patterns as JSON Schema means them (anywhere in the string)',
    async (_whose, create) => {
      const validate = await checkOf(create(), patternSchema('\\d{4}-\\d{2}'));
      expect(validate({ word: 'due 2024-05' }).valid).toBe(true);
      expect(validate({ word: 'due soon' }).errorMessage).toContain('must match pattern');
    },
  );

  it("the client's refuses a lookahead pattern with a message naming it, instead of backtracking", async () => {
    const validate = await checkOf(new LazySchemaValidator(), patternSchema('^(?=a)a+$'));
    const result = validate({ word: 'aaa' });
    expect(result.valid).toBe(false);
    expect(result.errorMessage).toContain('the output schema cannot be checked');
    expect(result.errorMessage).toContain('"^(?=a)a+$" cannot be matched in linear time');
  });

  it('a catastrophic-backtracking pattern against its worst input answers, and the validator still works', async () => {
    const validate = await checkOf(new LazySchemaValidator(), patternSchema('^(a+)+$'));
    expect(validate({ word: `${'a'.repeat(40)}!` }).valid).toBe(false);
    expect(validate({ word: 'aaaa' }).valid).toBe(true);
  });
});

describe("the client's engine, loaded on demand", () => {
  it('is not loaded for a server whose tools have no output schema: ready at once', async () => {
    await expect(new LazySchemaValidator().ready()).resolves.toBeUndefined();
  });

  it('a check made before the first call still checks: a call waits for ready()', async () => {
    const validator = new LazySchemaValidator();
    const validate = validator.getValidator(numberSchema);
    await validator.ready();
    expect(validate({ value: 'three' }).valid).toBe(false);
    expect(validate({ value: 3 }).valid).toBe(true);
  });
});
