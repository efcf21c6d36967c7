/**
 * The shape of `mcp_config.json`, as zod schemas. Server entries follow Claude Desktop's
 * `mcpServers` shape plus our own fields; unknown keys at the top level and inside an
 * entry are allowed so a Claude Desktop file works unchanged. Our own sections are strict.
 */
import * as z from 'zod';
import { BUILT_IN_SERVER } from '../vocabulary/tool-naming.js';
import { isRecord } from '../shared/is-record.js';

const stringMap = z.record(z.string(), z.string());
/** Node timers overflow past 2^31-1 ms and then fire at once, so longer is refused. */
const MAX_TIMEOUT_S = 2_147_483;
const seconds = z.number().positive().max(MAX_TIMEOUT_S);

const REMOTE_TYPES = ['remote', 'http', 'sse'] as const;
const SERVER_REQUEST_POLICIES = ['ask', 'allow', 'deny'] as const;
const LOCAL_TYPES = ['local', 'stdio'] as const;

/** OAuth settings of a remote entry; without a client id the client registers itself (dynamic registration). */
const oauthSchema = z.strictObject({
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().min(1).optional(),
  scopes: z.array(z.string().min(1)).optional(),
  /** The port of `http://127.0.0.1:<port>/callback`; a free one when unset (a pre-registered client needs it fixed). */
  callbackPort: z.int().min(1).max(65_535).optional(),
  /** `client_credentials`: a client of its own (no person, no browser), with `clientId` and a secret or key. */
  grant: z.enum(['authorization_code', 'client_credentials']).optional(),
  /** An https URL of this client's metadata document, used as its id where the server takes one (SEP-991). */
  clientMetadataUrl: z.url({ protocol: /^https$/ }).optional(),
  /** PEM file of the private key for `private_key_jwt` client authentication, and its algorithm (default RS256). */
  privateKeyFile: z.string().min(1).optional(),
  signingAlgorithm: z.string().min(1).optional(),
});

export const serverEntrySchema = z
  .looseObject({
    type: z.enum([...LOCAL_TYPES, ...REMOTE_TYPES]).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: stringMap.optional(),
    cwd: z.string().min(1).optional(),
    url: z.string().min(1).optional(),
    headers: stringMap.optional(),
    ca: z.string().min(1).optional(),
    disabled: z.boolean().optional(),
    timeout: seconds.optional(),
    alwaysAllow: z.array(z.string()).optional(),
    /** Only these tools of the server are used (offered and callable); `excludeTools` then drops some. */
    includeTools: z.array(z.string()).optional(),
    excludeTools: z.array(z.string()).optional(),
    /** Tools offered to the model on every request, even when the catalogue is over its budget. */
    alwaysInclude: z.array(z.string()).optional(),
    trust: z.boolean().optional(),
    /** After `failures` failed calls in a row the server is not called for `cooldown` seconds (doubling while it keeps failing). */
    circuitBreaker: z.strictObject({ failures: z.int().min(1).optional(), cooldown: seconds.optional() }).optional(),
    /** Whether the server may use the user's model (`sampling/createMessage`): ask each time by default. */
    sampling: z.enum(SERVER_REQUEST_POLICIES).optional(),
    /** Whether the server may ask the user for information (`elicitation/create`). */
    elicitation: z.enum(SERVER_REQUEST_POLICIES).optional(),
    /** A remote server's OAuth: `oauth` always, `none` never; unset: when it answers 401 and no Authorization header is set. */
    auth: z.enum(['oauth', 'none']).optional(),
    oauth: oauthSchema.optional(),
    description: z.string().optional(),
  })
  .superRefine((entry, context) => {
    const issue = (path: string[], message: string): void => context.addIssue({ code: 'custom', path, message });
    // A parked, half-written entry is fine as long as it stays disabled.
    if (entry.disabled === true) return;
    if (entry.type === undefined) {
      if (entry.command !== undefined && entry.url !== undefined)
        issue([], 'has both "command" and "url": set "type" to "stdio" or "remote"');
      if (entry.command === undefined && entry.url === undefined)
        issue([], 'needs "command" (a local server) or "url" (a remote one)');
    } else if (isRemoteType(entry.type)) {
      if (entry.url === undefined) issue(['url'], `a "${entry.type}" server needs "url"`);
    } else if (entry.command === undefined) {
      issue(['command'], `a "${entry.type}" server needs "command"`);
    }
    if (entry.ca !== undefined && !isRemoteEntry(entry)) issue(['ca'], '"ca" applies only to remote servers');
    checkOAuthEntry(entry, issue);
  });

export type ServerEntry = z.infer<typeof serverEntrySchema>;

/** `auth`/`oauth` belong to remote entries; a client of its own needs its id and a secret or key. */
function checkOAuthEntry(entry: ServerEntry, issue: (path: string[], message: string) => void): void {
  const remote = isRemoteEntry(entry);
  if (entry.auth !== undefined && !remote) issue(['auth'], '"auth" applies only to remote servers');
  if (entry.oauth !== undefined && !remote) issue(['oauth'], '"oauth" applies only to remote servers');
  const sendsHeader = Object.keys(entry.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
  if (entry.auth === 'oauth' && sendsHeader)
    issue(['auth'], '"auth": "oauth" and an "Authorization" header: use one or the other');
  const oauth = entry.oauth;
  if (oauth?.grant !== 'client_credentials') return;
  if (oauth.clientId === undefined) issue(['oauth', 'clientId'], '"client_credentials" needs "clientId"');
  if (oauth.clientSecret === undefined && oauth.privateKeyFile === undefined)
    issue(['oauth'], '"client_credentials" needs "clientSecret" or "privateKeyFile"');
}
type RemoteType = (typeof REMOTE_TYPES)[number];

function isRemoteType(type: string): type is RemoteType {
  return (REMOTE_TYPES as readonly string[]).includes(type);
}

/** With no `type`, `url` means remote and `command` means stdio (Claude Desktop has only `command`). */
export function isRemoteEntry(entry: ServerEntry): boolean {
  return entry.type === undefined ? entry.command === undefined : isRemoteType(entry.type);
}

/**
 * Server names route tool calls: `server.tool` on the command line and `server__tool` for
 * the model. So: letters, digits, `-` and `_`, starting with a letter or digit, and no
 * `__` (the model-facing separator). (zod itself drops a `__proto__` key.)
 */
const SERVER_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]|_(?!_))*$/;
const serverName = z
  .string()
  .regex(SERVER_NAME, 'server names use letters, digits, "-" and single "_", and start with a letter or digit')
  .refine(
    (name) => name.toLowerCase() !== BUILT_IN_SERVER,
    `"${BUILT_IN_SERVER}" names mcp-chat's own tools: pick another name`,
  );
const serversSchema = z.record(serverName, serverEntrySchema);

/** More read-only calls at once than this only queue up in the servers. */
const MAX_PARALLEL = 32;

/**
 * A share given as a fraction (`0.25`) or a percentage (`"25%"`), above 0 and up to all of it
 * (`whole: true`) or below it; `example` is the percentage the message suggests.
 */
function share(whole: boolean, example: number): z.ZodType<number | string> {
  const bound = whole ? 'at most 100' : 'below 100';
  return z.union([
    whole ? z.number().gt(0).max(1) : z.number().gt(0).lt(1),
    z
      .string()
      .regex(/^\d+(\.\d+)?\s*%$/, `a percentage such as "${example}%", or a fraction such as ${example / 100}`)
      .refine((text) => {
        const percent = Number.parseFloat(text);
        return percent > 0 && (whole ? percent <= 100 : percent < 100);
      }, `a percentage above 0 and ${bound}`),
  ]);
}

/** A share of `num_ctx`. */
const contextShare = share(true, 25);
/** A share of the history's room that, once filled, triggers something: never all of it. */
const fillShare = share(false, 80);

/** Reasoning effort levels Ollama takes for `think` besides true and false. */
export const THINK_LEVELS = ['low', 'medium', 'high', 'max'] as const;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A log file size with its unit, `"512k"`, `"10m"`, `"1g"` (`kb`/`MB` too): a bare number would be ambiguous. */
export const LOG_SIZE = /^([1-9]\d*)\s*([kmg])b?$/i;
const logSize = z.string().regex(LOG_SIZE, 'a size with its unit, such as "512k", "10m" or "1g"');

/**
 * How a file read once per start is checked: without zod's generated parsers. zod compiles a
 * parser for each object schema on its first parse (with `new Function`), which pays off over many
 * parses and only costs for one.
 */
export const PARSED_ONCE = { jitless: true } as const;

export const configFileSchema = z
  .looseObject({
    ollama: z
      .strictObject({
        base_url: z.string().min(1).optional(),
        model: z.string().min(1).optional(),
        timeout: seconds.optional(),
        num_ctx: z.number().int().positive().optional(),
        tool_mode: z.enum(['auto', 'native', 'json', 'xml']).optional(),
        options: z.record(z.string(), z.unknown()).optional(),
        /** Ollama's `think`, sent only to a model that can think. */
        think: z.union([z.boolean(), z.enum(THINK_LEVELS)]).optional(),
      })
      .optional(),
    /** Directories offered to servers as roots, besides the one mcp-chat starts in. */
    roots: z.array(z.string().min(1)).optional(),
    mcpServers: serversSchema.optional(),
    mcp_servers: serversSchema.optional(),
    // At least one user message and its reply, or the window is useless.
    history: z
      .strictObject({ max_messages: z.number().int().min(2).optional(), compact_at: fillShare.optional() })
      .optional(),
    tools: z
      .strictObject({
        max_parallel: z.number().int().min(1).max(MAX_PARALLEL).optional(),
        budget: contextShare.optional(),
        embed_model: z.string().min(1).optional(),
      })
      .optional(),
    logging: z
      .strictObject({
        level: z.enum(LOG_LEVELS).optional(),
        file: z.string().min(1).optional(),
        max_size: logSize.optional(),
        files: z.number().int().min(1).optional(),
      })
      .optional(),
  })
  // Runs even when a field is invalid, so these problems are reported with the others.
  .superRefine(checkServerMaps, { when: (payload) => isRecord(payload.value) });

export type ConfigFile = z.infer<typeof configFileSchema>;

/** Typed loosely on purpose: with `when`, the fields may still be invalid here. */
function checkServerMaps(file: { mcpServers?: unknown; mcp_servers?: unknown }, context: z.RefinementCtx): void {
  if (file.mcpServers !== undefined && file.mcp_servers !== undefined) {
    context.addIssue({
      code: 'custom',
      path: ['mcp_servers'],
      message: 'use either "mcpServers" or "mcp_servers", not both',
    });
  }
  if (file.mcpServers === undefined && file.mcp_servers === undefined) {
    context.addIssue({
      code: 'custom',
      path: ['mcpServers'],
      message: 'missing: add "mcpServers": {} to chat without tools',
    });
  }
  const key = file.mcpServers !== undefined ? 'mcpServers' : 'mcp_servers';
  const servers = file[key];
  if (!isRecord(servers)) return;
  const seen = new Map<string, string>();
  // The host looks servers up case-insensitively, so `Calc` and `calc` would collide.
  for (const name of Object.keys(servers)) {
    const other = seen.get(name.toLowerCase());
    if (other !== undefined)
      context.addIssue({ code: 'custom', path: [key, name], message: `same name as "${other}" (names ignore case)` });
    seen.set(name.toLowerCase(), name);
  }
}
