/**
 * What opening a session to a server gives back, and what it needs, whatever the transport:
 * the stdio and remote connectors both produce a `Connection`, from a client made here with
 * the capabilities mcp-chat declares.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import {
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type LoggingLevel,
  ResourceUpdatedNotificationSchema,
  type Root,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../config/types.js';
import type { Logger } from '../shared/log.js';
import { PACKAGE_VERSION } from '../shared/paths.js';
import { LazySchemaValidator, registerSchemaValidator } from './lazy-schema-validator.js';
import { answerServerRequests, SERVER_REQUEST_CAPABILITIES, type ServerRequestOptions } from './server-requests.js';
import { addSecretValues, secretValues } from './server-secrets.js';
import { loggableLine } from './stderr-tail.js';

export const CLIENT_INFO = { name: 'mcp-chat', version: PACKAGE_VERSION };

export interface Connection {
  client: Client;
  /** Recent stderr of a stdio child; empty for remote servers. */
  stderrTail(): string;
  /** Why the client side closed the session itself (e.g. a message over the SDK's size limit), if it did. */
  closeReason?: () => string | undefined;
}

/** The lists a server may announce as changed. */
export type ServerList = 'tools' | 'prompts' | 'resources';

export interface ConnectOptions {
  log: Logger;
  /** Bound on the initialize handshake. */
  timeoutMs: number;
  /** Aborts the handshake (the host closed while the server started): the child is stopped, not left waiting. */
  signal?: AbortSignal;
  /** Called once when the session ends for any reason other than our own close. */
  onClosed: () => void;
  /** The directories the user works in, offered to the server as roots. */
  roots: Root[];
  /** The server announced that one of its lists changed (announcements close together come as one). */
  onListChanged: (list: ServerList) => void;
  /** A resource the user watches (`resources/subscribe`) changed. */
  onResourceUpdated: (uri: string) => void;
  /** Who answers the server's sampling and elicitation requests. */
  serverRequests: Omit<ServerRequestOptions, 'log' | 'learnSecrets'>;
}

/** Announcements of one list within this window are one refresh. */
const LIST_CHANGE_DEBOUNCE_MS = 100;

/** MCP's syslog levels on pino's: `notice` and above `warning` have no pino level of their own. */
const LOG_LEVEL: Record<LoggingLevel, 'debug' | 'info' | 'warn' | 'error' | 'fatal'> = {
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'error',
  alert: 'fatal',
  emergency: 'fatal',
};

/** A log message's data as text: a server may send any JSON value, nested without bound. */
function dataText(data: unknown): string {
  if (typeof data === 'string') return data;
  try {
    return JSON.stringify(data) ?? String(data);
  } catch {
    return '[data that cannot be written as JSON]';
  }
}

// Security: a log message is a server's stderr by another road, so it is logged the way its stderr
// is: the secrets its entry gives it (also as JSON escapes them, inside an object) and token shapes
// hidden, then cut. Its entry's secrets are looked up per message: OAuth tokens are learned later.
function serverLogText(text: string, config: ServerConfig): string {
  const secrets = secretValues(config);
  const escaped = secrets.map((secret) => JSON.stringify(secret).slice(1, -1)).filter((e) => !secrets.includes(e));
  return loggableLine(text, [...secrets, ...escaped]);
}

/**
 * A client for `config`'s server that declares roots and answers `roots/list`, answers sampling
 * and elicitation requests (through `serverRequests`), refreshes on list-change announcements,
 * and writes the server's log messages to our log at their level.
 */
export function createClient(options: ConnectOptions, config: ServerConfig): Client {
  const changed = (list: ServerList) => ({
    autoRefresh: false,
    debounceMs: LIST_CHANGE_DEBOUNCE_MS,
    onChanged: () => options.onListChanged(list),
  });
  const schemaValidator = new LazySchemaValidator();
  const client = new Client(CLIENT_INFO, {
    capabilities: { roots: { listChanged: true }, ...SERVER_REQUEST_CAPABILITIES },
    // Where the answers to requests a server sent as tasks wait until it asks for them.
    taskStore: new InMemoryTaskStore(),
    jsonSchemaValidator: schemaValidator,
    listChanged: { tools: changed('tools'), prompts: changed('prompts'), resources: changed('resources') },
  });
  registerSchemaValidator(client, schemaValidator);
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: options.roots }));
  answerServerRequests(client, {
    ...options.serverRequests,
    log: options.log,
    learnSecrets: (values) => addSecretValues(config, values),
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) =>
    options.onResourceUpdated(params.uri),
  );
  client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
    const logger = params.logger === undefined ? {} : { logger: serverLogText(params.logger, config) };
    options.log[LOG_LEVEL[params.level]](
      { mcpLevel: params.level, ...logger, data: serverLogText(dataText(params.data), config) },
      'server log message',
    );
  });
  return client;
}
