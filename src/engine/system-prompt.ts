/**
 * The system prompt: who the assistant is, the live tool catalogue grouped by server
 * with each tool's parameters, and the exact JSON object to answer with to use a tool.
 * In native tool mode the catalogue travels in `tools`, so the prompt stays short (but for
 * the tools listed when only part of a large catalogue fits the budget). Each
 * server's instructions (its own words, quoted) go under its heading; natively, in a
 * short "Server notes" section.
 */
import { typeNotation } from './schema-notation.js';
import type { JsonSchemaObject, ToolProtocolName, ToolSpec } from '../vocabulary/types.js';

const INTRO = 'You are a helpful assistant running in a terminal. Answer concisely, in Markdown where it helps.';

interface PropertySchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  default?: unknown;
}

function describeProperty(name: string, schema: PropertySchema, required: boolean, root: JsonSchemaObject): string {
  // The values are said as "one of" below.
  const type = typeNotation(schema.enum ? { ...schema, enum: undefined } : schema, root);
  const details = [
    required ? 'required' : 'optional',
    schema.enum ? `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}` : undefined,
    schema.default !== undefined ? `default ${JSON.stringify(schema.default)}` : undefined,
  ].filter(Boolean);
  return `${name} (${type}, ${details.join(', ')})${schema.description ? `: ${schema.description}` : ''}`;
}

function properties(schema: JsonSchemaObject): [string, PropertySchema][] {
  return Object.entries(schema.properties ?? {}) as [string, PropertySchema][];
}

function exampleValue(name: string, schema: PropertySchema): unknown {
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'number' || type === 'integer') return 3;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return `<${name}>`;
}

export function toolCallJson(server: string, tool: string, args: Record<string, unknown>): string {
  return JSON.stringify({ action: 'use_tool', server, tool, arguments: args });
}

/** The XML form of the same call, for models that follow XML better than JSON. */
export function toolCallXml(server: string, tool: string, args: Record<string, unknown>): string {
  return `<use_tool server="${server}" tool="${tool}">${JSON.stringify(args)}</use_tool>`;
}

type TextProtocol = Exclude<ToolProtocolName, 'native'>;
type CallWriter = (server: string, tool: string, args: Record<string, unknown>) => string;
const CALL_WRITERS: Record<TextProtocol, CallWriter> = { json: toolCallJson, xml: toolCallXml };
const FORM: Record<TextProtocol, string> = { json: 'JSON object', xml: 'XML element' };

function exampleCall(tool: ToolSpec, write: CallWriter): string {
  const required = new Set(tool.inputSchema.required ?? []);
  const args = Object.fromEntries(
    properties(tool.inputSchema)
      .filter(([name]) => required.has(name))
      .map(([name, schema]) => [name, exampleValue(name, schema)]),
  );
  return write(tool.server, tool.name, args);
}

/** One tool's lines in a text-mode catalogue. */
export function describeTool(tool: ToolSpec): string[] {
  const lines = [`- ${tool.name}: ${tool.description.split('\n')[0] ?? ''}`];
  const required = new Set(tool.inputSchema.required ?? []);
  for (const [name, schema] of properties(tool.inputSchema)) {
    lines.push(`    - ${describeProperty(name, schema, required.has(name), tool.inputSchema)}`);
  }
  return lines;
}

/** Each server's instructions, by server, from the first of its tools that carries them. */
function instructionsByServer(tools: ToolSpec[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const tool of tools) {
    if (tool.serverInstructions !== undefined && !found.has(tool.server))
      found.set(tool.server, tool.serverInstructions);
  }
  return found;
}

/** Quoted, so a server's own headings and lines stay inside its section and read as its words. */
export function quotedInstructions(instructions: string | undefined): string[] {
  if (instructions === undefined) return [];
  const quoted = instructions.split('\n').map((line) => (line.trim() === '' ? '>' : `> ${line}`));
  return ['Its instructions, in its own words:', ...quoted];
}

/** A server's heading in a tool list or the server notes. */
export const serverHeading = (server: string): string => `## Server "${server}"`;

function describeServer(server: string, tools: ToolSpec[], write: CallWriter, instructions?: string): string {
  const lines = [serverHeading(server), ...quotedInstructions(instructions), ...tools.flatMap(describeTool)];
  const first = tools[0];
  if (first) lines.push(`Example: ${exampleCall(first, write)}`);
  return lines.join('\n');
}

/**
 * What heads the tools listed in a native prompt. When only part of the catalogue fits, the
 * likeliest few tools go as definitions and the rest as lines here, at a fraction of the cost each;
 * the model calls one as text, which is read in every tool mode.
 */
export const LISTED_TOOLS_INTRO = [
  '# More tools',
  'These are not in your tool list, but you can use them: to use one, reply with ONLY this JSON object and nothing else:',
  toolCallJson('<server>', '<tool>', { '<parameter>': '<value>' }),
].join('\n');

/**
 * A listed tool as one line, its parameters as a signature: `- browser_click(target: string,
 * button?: "left"|"right"): Perform click on a web page`. What a call needs (names, types, which
 * are required, the values allowed) in less room than a line a parameter would take, so more
 * tools fit the same budget.
 */
export function listedTool(tool: ToolSpec): string {
  const required = new Set(tool.inputSchema.required ?? []);
  const parameters = properties(tool.inputSchema).map(
    ([name, schema]) => `${name}${required.has(name) ? '' : '?'}: ${typeNotation(schema, tool.inputSchema)}`,
  );
  return `- ${tool.name}(${parameters.join(', ')}): ${tool.description.split('\n')[0] ?? ''}`;
}

function listedTools(listed: ToolSpec[]): string[] {
  const servers = [...new Set(listed.map((tool) => tool.server))];
  return [
    LISTED_TOOLS_INTRO,
    ...servers.flatMap((server) => [
      serverHeading(server),
      ...listed.filter((tool) => tool.server === server).map(listedTool),
    ]),
  ];
}

/**
 * Built once per catalogue and mode: the host hands out the same tools array until a
 * server's tools change, and a turn asks for the prompt at every step. `listed`: natively, the
 * offered tools that go as lines of the prompt; a selection of them is new at every request.
 */
const built = new WeakMap<ToolSpec[], Map<ToolProtocolName, string>>();

export function buildSystemPrompt(tools: ToolSpec[], mode: ToolProtocolName, listed: ToolSpec[] = []): string {
  if (listed.length > 0) return nativePrompt(tools, listed);
  let prompts = built.get(tools);
  if (!prompts) built.set(tools, (prompts = new Map()));
  let prompt = prompts.get(mode);
  if (prompt === undefined) prompts.set(mode, (prompt = promptFor(tools, mode)));
  return prompt;
}

/** What heads the servers' instructions in a native prompt. */
export const SERVER_NOTES_HEADING = '# Server notes';

/** A server's instructions as a native prompt's server notes carry them. */
export const serverNote = (server: string, instructions: string): string[] => [
  serverHeading(server),
  ...quotedInstructions(instructions),
];

function nativePrompt(tools: ToolSpec[], listed: ToolSpec[]): string {
  const native = `${INTRO}\nUse the provided tools when they help answer the question; otherwise answer directly. After a tool result arrives, use it to answer the user.`;
  const instructions = instructionsByServer([...tools, ...listed]);
  const notes = [...instructions].flatMap(([server, text]) => serverNote(server, text));
  return [
    native,
    ...(notes.length > 0 ? ['', SERVER_NOTES_HEADING, ...notes] : []),
    ...(listed.length > 0 ? ['', ...listedTools(listed)] : []),
  ].join('\n');
}

function promptFor(tools: ToolSpec[], mode: ToolProtocolName): string {
  if (tools.length === 0) return `${INTRO}\nNo tools are available right now; answer from your own knowledge.`;
  if (mode === 'native') return nativePrompt(tools, []);
  const instructions = instructionsByServer(tools);
  const servers = [...new Set(tools.map((tool) => tool.server))];
  const write = CALL_WRITERS[mode];
  return [
    INTRO,
    `You can use tools. To use one, reply with ONLY this ${FORM[mode]} and nothing else:`,
    write('<server>', '<tool>', { '<parameter>': '<value>' }),
    'Use the exact server and tool names listed below. To use several tools that do not depend on each other,',
    `write one ${FORM[mode]} per line. Their results arrive in the next message. When you have what you need,`,
    `or no tool is needed, answer in plain text without any ${FORM[mode]}. Never invent tool results.`,
    '',
    '# Available tools',
    ...servers.map((server) =>
      describeServer(
        server,
        tools.filter((tool) => tool.server === server),
        write,
        instructions.get(server),
      ),
    ),
  ].join('\n');
}
