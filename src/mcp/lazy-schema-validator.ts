/**
 * The SDK's JSON Schema validator, built on first use, matching patterns in linear time
 * (linear-patterns.ts). Each client keeps its own instance, as the SDK's default does: two
 * servers may reuse one schema `$id` for different schemas.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { errorMessage } from '../shared/errors.js';
import { linearPatternAjv } from './linear-patterns.js';

export class LazySchemaValidator implements jsonSchemaValidator {
  private validator: AjvJsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.validator ??= new AjvJsonSchemaValidator(linearPatternAjv());
    try {
      return this.validator.getValidator<T>(schema);
    } catch (error) {
      // Security: the SDK compiles every output schema as it lists the tools; one it cannot
      // compile (a pattern RE2 refuses among them) fails that tool's results, not the server's start.
      const reason = `the output schema cannot be checked: ${errorMessage(error)}`;
      return () => ({ valid: false, data: undefined, errorMessage: reason });
    }
  }
}
