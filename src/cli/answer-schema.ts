/**
 * `ask --output-schema <file>`: the JSON Schema an answer must conform to. A file that is
 * missing, not JSON, not a schema object or not a schema Ajv can compile is a usage error (exit
 * 2) saying which. An answer is checked with the validator the MCP SDK checks tools'
 * `outputSchema` with (Ajv, all errors, formats, patterns in linear time), so both say the same about the same data. Ajv
 * is imported here only when a schema is given; otherwise `ask` first loads it with the host, once
 * its servers are spawned (with-host.ts).
 */
import fs from 'node:fs';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation';
import type { JsonSchema } from '../vocabulary/types.js';
import { UsageError, errorMessage } from '../shared/errors.js';
import { isRecord } from '../shared/is-record.js';

export type AnswerCheck = { ok: true; value: unknown } | { ok: false; errors: string };

export interface AnswerSchema {
  schema: JsonSchema;
  check(answer: string): AnswerCheck;
}

const HINT = 'Give --output-schema a file holding a JSON Schema object, e.g. {"type":"object","properties":{…}}.';

function readSchemaFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = isRecord(error) && typeof error.code === 'string' ? error.code : '';
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : errorMessage(error);
    throw new UsageError(`--output-schema: cannot read ${file}: ${why}`, HINT);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`--output-schema: ${file} is not JSON: ${errorMessage(error)}`, HINT);
  }
}

/** The answer as JSON; trailing whitespace is allowed (some models pad structured output with it). */
export function checkAnswer(answer: string, validate: (value: unknown) => AnswerCheck): AnswerCheck {
  let value: unknown;
  try {
    value = JSON.parse(answer);
  } catch (error) {
    return { ok: false, errors: `the answer is not JSON: ${errorMessage(error)}` };
  }
  return validate(value);
}

export async function loadAnswerSchema(file: string): Promise<AnswerSchema> {
  const schema = readSchemaFile(file);
  if (!isRecord(schema))
    throw new UsageError(
      `--output-schema: ${file} does not hold a JSON Schema object (Ollama's format takes one)`,
      HINT,
    );
  const [{ AjvJsonSchemaValidator }, { linearPatternAjv }] = await Promise.all([
    import('@modelcontextprotocol/sdk/validation/ajv'),
    import('../mcp/linear-patterns.js'),
  ]);
  let validator: ReturnType<InstanceType<typeof AjvJsonSchemaValidator>['getValidator']>;
  try {
    // Security: the answer is the model's, which a prompt injection may steer: patterns match in linear time.
    validator = new AjvJsonSchemaValidator(linearPatternAjv()).getValidator(schema as JsonSchemaType);
  } catch (error) {
    throw new UsageError(`--output-schema: ${file} is not a usable JSON Schema: ${errorMessage(error)}`, HINT);
  }
  const validate = (value: unknown): AnswerCheck => {
    const result = validator(value);
    return result.valid ? { ok: true, value } : { ok: false, errors: result.errorMessage };
  };
  return { schema, check: (answer) => checkAnswer(answer, validate) };
}
