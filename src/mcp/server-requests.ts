/**
 * A server's requests to the client — `sampling/createMessage` and `elicitation/create` — from
 * the protocol's shapes into ours and the answers back. What is allowed, and how the user is
 * asked, is the `ServerRequestHandler`'s business; this file only translates, and refuses what
 * it cannot represent.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  type CreateMessageRequest,
  type CreateMessageResult,
  type CreateTaskResult,
  ElicitationCompleteNotificationSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitRequestFormParams,
  type ElicitResult,
  ErrorCode,
  type Result,
  type SamplingMessage as McpSamplingMessage,
} from '@modelcontextprotocol/sdk/types.js';
import {
  DeclinedRequest,
  type FieldOption,
  type FormField,
  type SamplingMessage,
  type SamplingRequest,
  type ServerRequestHandler,
} from '../vocabulary/server-requests.js';
import { errorMessage } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import { isSecretField, secretAnswers } from './form-secrets.js';

/** The spec's code for a sampling request the user rejected. */
const USER_REJECTED = -1;

/**
 * What the client declares it answers: sampling, forms and URLs, each also as a task (the server
 * polls for the answer instead of holding a request open while a person thinks).
 */
export const SERVER_REQUEST_CAPABILITIES = {
  sampling: {},
  elicitation: { form: {}, url: {} },
  tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
} as const;

type McpContent = McpSamplingMessage['content'];
type McpBlock = Exclude<McpContent, unknown[]>;

function blockText(block: McpBlock): string | undefined {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return undefined;
    case 'audio':
      return '[audio, which this client cannot give the model]';
    default:
      // Tool use and results belong to sampling with tools, which mcp-chat does not declare.
      return JSON.stringify(block);
  }
}

function toSamplingMessage(message: McpSamplingMessage): SamplingMessage {
  const blocks: McpBlock[] = Array.isArray(message.content) ? message.content : [message.content];
  const text = blocks.map(blockText).filter((part) => part !== undefined);
  const images = blocks.flatMap((block) =>
    block.type === 'image' ? [{ data: block.data, mimeType: block.mimeType }] : [],
  );
  return { role: message.role, text: text.join('\n'), images };
}

export function toSamplingRequest(server: string, params: CreateMessageRequest['params']): SamplingRequest {
  const hints = (params.modelPreferences?.hints ?? []).flatMap((hint) => (hint.name ? [hint.name] : []));
  return {
    server,
    messages: params.messages.map(toSamplingMessage),
    ...(params.systemPrompt === undefined ? {} : { systemPrompt: params.systemPrompt }),
    maxTokens: params.maxTokens,
    ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
    ...(params.stopSequences === undefined ? {} : { stopSequences: params.stopSequences }),
    modelHints: hints,
  };
}

type PropertySchema = ElicitRequestFormParams['requestedSchema']['properties'][string];
type NumberSchema = Extract<PropertySchema, { type: 'number' | 'integer' }>;

const isNumberSchema = (schema: PropertySchema): schema is NumberSchema =>
  schema.type === 'number' || schema.type === 'integer';

function options(values: string[], labels?: string[]): FieldOption[] {
  return values.map((value, index) => ({ value, label: labels?.[index] ?? value }));
}

/** Only what the user needs to see or the answer must respect; `undefined`s left out. */
function defined<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}

function toField(name: string, schema: PropertySchema, required: boolean): FormField {
  const secret = isSecretField(name, schema.title) ? (true as const) : undefined;
  const common = defined({ name, title: schema.title, description: schema.description, required, secret });
  if (schema.type === 'boolean') return { ...common, kind: 'boolean', ...defined({ default: schema.default }) };
  if (isNumberSchema(schema)) {
    const { minimum, maximum, default: fallback } = schema;
    return { ...common, kind: schema.type, ...defined({ minimum, maximum, default: fallback }) };
  }
  if (schema.type === 'array') {
    const choices =
      'enum' in schema.items
        ? options(schema.items.enum)
        : schema.items.anyOf.map((option) => ({ value: option.const, label: option.title }));
    const { minItems, maxItems, default: fallback } = schema;
    return { ...common, kind: 'choices', options: choices, ...defined({ minItems, maxItems, default: fallback }) };
  }
  if ('enum' in schema) {
    const labels = 'enumNames' in schema ? schema.enumNames : undefined;
    return {
      ...common,
      kind: 'choice',
      options: options(schema.enum, labels),
      ...defined({ default: schema.default }),
    };
  }
  if ('oneOf' in schema) {
    const choices = schema.oneOf.map((option) => ({ value: option.const, label: option.title }));
    return { ...common, kind: 'choice', options: choices, ...defined({ default: schema.default }) };
  }
  const { format, minLength, maxLength, default: fallback } = schema;
  return { ...common, kind: 'string', ...defined({ format, minLength, maxLength, default: fallback }) };
}

export function toFormFields(schema: ElicitRequestFormParams['requestedSchema']): FormField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, property]) => toField(name, property, required.has(name)));
}

export interface ServerRequestOptions {
  server: string;
  handler: ServerRequestHandler;
  log: Logger;
  /** Called before each sampling request; throws (a `DeclinedRequest`) when the server has asked too often. */
  countSampling: () => void;
  /** Values the user gave a form's secret fields: from now on hidden wherever this server's words are shown or logged. */
  learnSecrets: (values: string[]) => void;
}

type Extra = Parameters<Parameters<Client['setRequestHandler']>[1]>[1];

/**
 * A request the server sent as a task (`params.task`) is answered at once with the task, and the
 * answer is worked out after (a person may take minutes): the server polls `tasks/get` and reads
 * it with `tasks/result`, which the SDK serves from the task store. Otherwise it is answered when ready.
 */
async function answer<T extends Result>(
  extra: Extra,
  asTask: boolean,
  work: (signal: AbortSignal) => Promise<T>,
  failed: (error: unknown) => Result,
): Promise<T | CreateTaskResult> {
  const store = extra.taskStore;
  if (!asTask || !store) return work(extra.signal);
  // No ttl: a task lives as long as the session (the store's ttl timers would hold the process open).
  const task = await store.createTask({});
  void work(new AbortController().signal).then(
    (result) => store.storeTaskResult(task.taskId, 'completed', result),
    (error: unknown) => store.storeTaskResult(task.taskId, 'failed', failed(error)),
  );
  return { task };
}

/**
 * An error answer with its code and bare words. The SDK sends a thrown error's `message` and the
 * receiving SDK prefixes `MCP error <code>: ` again, so an `McpError` (prefixed already) would reach
 * the server, and the user, as `MCP error -1: MCP error -1: …`.
 */
class RequestRefused extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The protocol's error for a sampling request that did not run or failed. */
function samplingError(error: unknown): RequestRefused {
  if (error instanceof DeclinedRequest) return new RequestRefused(USER_REJECTED, error.message);
  return new RequestRefused(ErrorCode.InternalError, `sampling failed: ${errorMessage(error)}`);
}

/** The handlers the client answers a server's requests with, and the capabilities they need. */
export function answerServerRequests(client: Client, options: ServerRequestOptions): void {
  const { server, handler, log } = options;
  const sample = async (params: CreateMessageRequest['params'], signal: AbortSignal): Promise<CreateMessageResult> => {
    try {
      options.countSampling();
      const result = await handler.sample(toSamplingRequest(server, params), signal);
      log.info({ model: result.model, stopReason: result.stopReason, chars: result.text.length }, 'sampling answered');
      return {
        role: 'assistant',
        content: { type: 'text', text: result.text },
        model: result.model,
        stopReason: result.stopReason,
      };
    } catch (error) {
      log.info({ reason: errorMessage(error) }, 'sampling declined or failed');
      throw samplingError(error);
    }
  };
  client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
    answer(
      extra,
      request.params.task !== undefined,
      (signal) => sample(request.params, signal),
      (error) => ({ content: [{ type: 'text', text: samplingError(error).message }], isError: true }),
    ),
  );
  const elicit = async (params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> => {
    if (params.mode === 'url') {
      const { message, url, elicitationId } = params;
      const action = await handler.visitUrl({ server, message, url, elicitationId }, signal);
      log.info({ action, elicitationId }, 'url elicitation answered');
      return { action };
    }
    const fields = toFormFields(params.requestedSchema);
    const given = await handler.fillForm({ server, message: params.message, fields }, signal);
    // Security: learned before the answer goes, so an echo of it in the reply is hidden too.
    options.learnSecrets(secretAnswers(fields, given));
    // Values stay out of the log: a form may ask for anything.
    log.info({ action: given.action, fields: fields.length }, 'form elicitation answered');
    return given;
  };
  client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
    answer(
      extra,
      request.params.task !== undefined,
      (signal) => elicit(request.params, signal),
      // A form that could not be asked is one the user did not answer.
      (): ElicitResult => ({ action: 'cancel' }),
    ),
  );
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, ({ params }) => {
    log.info({ elicitationId: params.elicitationId }, 'url elicitation complete');
    handler.urlCompleted(server, params.elicitationId);
  });
}
