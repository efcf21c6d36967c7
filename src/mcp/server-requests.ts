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
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  type ElicitRequestFormParams,
  type ElicitResult,
  ErrorCode,
  McpError,
  type SamplingMessage as McpSamplingMessage,
} from '@modelcontextprotocol/sdk/types.js';
import {
  DeclinedRequest,
  type FieldOption,
  type FormField,
  type SamplingMessage,
  type SamplingRequest,
  type ServerRequestHandler,
} from '../chat/server-requests.js';
import { errorMessage } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';

/** The spec's code for a sampling request the user rejected. */
const USER_REJECTED = -1;

/** What the client declares it answers. */
export const SERVER_REQUEST_CAPABILITIES = {
  sampling: {},
  elicitation: { form: {}, url: {} },
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
  const common = defined({ name, title: schema.title, description: schema.description, required });
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
}

/** The handlers the client answers a server's requests with. */
export function answerServerRequests(client: Client, options: ServerRequestOptions): void {
  const { server, handler, log } = options;
  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra): Promise<CreateMessageResult> => {
    try {
      options.countSampling();
      const result = await handler.sample(toSamplingRequest(server, request.params), extra.signal);
      log.info({ model: result.model, stopReason: result.stopReason, chars: result.text.length }, 'sampling answered');
      return {
        role: 'assistant',
        content: { type: 'text', text: result.text },
        model: result.model,
        stopReason: result.stopReason,
      };
    } catch (error) {
      log.info({ reason: errorMessage(error) }, 'sampling declined or failed');
      if (error instanceof DeclinedRequest) throw new McpError(USER_REJECTED, error.message);
      throw new McpError(ErrorCode.InternalError, `sampling failed: ${errorMessage(error)}`);
    }
  });
  client.setRequestHandler(ElicitRequestSchema, async (request, extra): Promise<ElicitResult> => {
    const { params } = request;
    if (params.mode === 'url') {
      const { message, url, elicitationId } = params;
      const action = await handler.visitUrl({ server, message, url, elicitationId }, extra.signal);
      log.info({ action, elicitationId: params.elicitationId }, 'url elicitation answered');
      return { action };
    }
    const fields = toFormFields(params.requestedSchema);
    const answer = await handler.fillForm({ server, message: params.message, fields }, extra.signal);
    // Values stay out of the log: a form may ask for anything.
    log.info({ action: answer.action, fields: fields.length }, 'form elicitation answered');
    return answer;
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, ({ params }) => {
    log.info({ elicitationId: params.elicitationId }, 'url elicitation complete');
    handler.urlCompleted(server, params.elicitationId);
  });
}
