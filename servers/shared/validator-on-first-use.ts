/**
 * The SDK's server builds an Ajv instance (with its formats) in its constructor, at every start,
 * to check a client's answer to an elicitation against the schema it asked with. These servers
 * elicit nothing today; a server that does gets its Ajv at the first check.
 */
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

export function validatorOnFirstUse(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return {
    getValidator: <T>(schema: JsonSchemaType): JsonSchemaValidator<T> =>
      (ajv ??= new AjvJsonSchemaValidator()).getValidator<T>(schema),
  };
}
