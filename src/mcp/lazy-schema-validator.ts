/**
 * The SDK's JSON Schema validator for tools' output schemas, matching patterns in linear time
 * (linear-patterns.ts). The SDK asks for a validator as a server lists its tools, but only a call's
 * result is ever checked: the engine (Ajv with RE2 behind it) is loaded then, in the background,
 * and a call to a tool with an output schema waits for it (`outputSchemasReady`) before it goes out.
 * A server whose tools have no output schema never loads it. Each client keeps its own instance, as
 * the SDK's default does: two servers may reuse one schema `$id` for different schemas.
 */
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { errorMessage } from '../shared/errors.js';

async function loadEngine(): Promise<AjvJsonSchemaValidator> {
  const [{ AjvJsonSchemaValidator }, { linearPatternAjv }] = await Promise.all([
    import('@modelcontextprotocol/sdk/validation/ajv'),
    import('./linear-patterns.js'),
  ]);
  return new AjvJsonSchemaValidator(linearPatternAjv());
}

export class LazySchemaValidator implements jsonSchemaValidator {
  private engine: AjvJsonSchemaValidator | undefined;
  private loading: Promise<void> | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    void this.load();
    let compiled: JsonSchemaValidator<T> | undefined;
    return (input) => {
      compiled ??= this.compile<T>(schema);
      return compiled(input);
    };
  }

  /** Resolves once every validator handed out can check; at once when none was asked for. */
  ready(): Promise<void> {
    return this.loading ?? Promise.resolve();
  }

  private load(): Promise<void> {
    this.loading ??= loadEngine().then(
      (engine) => void (this.engine = engine),
      // Said by each check, where it reaches the user: the tool's results fail, not the session.
      () => undefined,
    );
    return this.loading;
  }

  private compile<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    if (this.engine === undefined) return refuse('the output schema checker could not be loaded');
    try {
      return this.engine.getValidator<T>(schema);
    } catch (error) {
      // Security: a schema the engine cannot compile (a pattern RE2 refuses among them) fails that
      // tool's results, not the server's start.
      return refuse(`the output schema cannot be checked: ${errorMessage(error)}`);
    }
  }
}

function refuse<T>(reason: string): JsonSchemaValidator<T> {
  return () => ({ valid: false, data: undefined, errorMessage: reason });
}

/** The validator of each client made by `createClient`. */
const validators = new WeakMap<object, LazySchemaValidator>();

export function registerSchemaValidator(client: object, validator: LazySchemaValidator): void {
  validators.set(client, validator);
}

/** Before a call: the output schemas of `client`'s tools can be checked. */
export function outputSchemasReady(client: object): Promise<void> {
  return validators.get(client)?.ready() ?? Promise.resolve();
}
