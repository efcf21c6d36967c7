/**
 * The validator each MCP client gets: built on first use, it checks output schemas as the SDK's
 * default does, and each client keeps its own, so two servers that reuse a schema `$id` for
 * different schemas are each checked against their own.
 */
import { describe, expect, it } from 'vitest';
import { LazySchemaValidator } from '../../src/mcp/lazy-schema-validator.js';

const numberSchema = { $id: 'urn:example:reading', type: 'object', properties: { value: { type: 'number' } } };
const stringSchema = { $id: 'urn:example:reading', type: 'object', properties: { value: { type: 'string' } } };

describe('LazySchemaValidator', () => {
  it('accepts what matches the schema and names what does not', () => {
    const validate = new LazySchemaValidator().getValidator(numberSchema);
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
