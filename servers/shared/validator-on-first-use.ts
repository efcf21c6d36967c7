/**
 * The SDK's server builds an Ajv instance (with its formats) in its constructor, at every start,
 * to check a client's answer to an elicitation against the schema it asked with. These servers
 * elicit nothing today; a server that does gets its Ajv at the first check, matching `pattern` in
 * linear time as the client does (src/mcp/linear-patterns.ts; servers may not import src/).
 */
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { Ajv, type Options } from 'ajv';
import formats from 'ajv-formats';
import { RE2JS } from 're2js';

type RegExpEngine = NonNullable<NonNullable<Options['code']>['regExp']>;

/** Security: a backtracking engine can spend minutes on one pattern; RE2's time is linear in the input. */
const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string) => {
    const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
    return { test: (text: string): boolean => compiled.test(text) };
  },
  { code: 'linearRegExp' },
);

function linearPatternAjv(): Ajv {
  // The options of the SDK's default Ajv (its ajv-provider.js), plus the linear-time engine.
  const ajv = new Ajv({
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
    code: { regExp: linearRegExp },
  });
  // A CommonJS module: its plugin is `default`, for NodeNext's types and at run time alike.
  formats.default(ajv);
  return ajv;
}

export function validatorOnFirstUse(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return {
    getValidator: <T>(schema: JsonSchemaType): JsonSchemaValidator<T> =>
      (ajv ??= new AjvJsonSchemaValidator(linearPatternAjv())).getValidator<T>(schema),
  };
}
