/**
 * The SDK's JSON Schema validator, built on first use. The SDK's `Client` builds an Ajv instance
 * (with its formats and meta-schemas) in its constructor, for every server at every start, and
 * uses it only for tools that declare an `outputSchema`. Each client keeps its own
 * instance, as the SDK's default does: two servers may reuse one schema `$id` for different schemas.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';

export class LazySchemaValidator implements jsonSchemaValidator {
  private validator: AjvJsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.validator ??= new AjvJsonSchemaValidator();
    return this.validator.getValidator<T>(schema);
  }
}
