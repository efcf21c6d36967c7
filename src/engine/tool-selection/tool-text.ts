/**
 * What a tool is found by: its server, name, title, description, parameter names and the names of
 * the fields inside its parameters, with identifiers split into words (`browser_navigate`,
 * `API-post-search` and `createEntities` are read as the words a person would type).
 */
import { displayName } from '../../vocabulary/tool-naming.js';
import { isRecord } from '../../shared/is-record.js';
import type { JsonSchemaObject, ToolSpec } from '../../vocabulary/types.js';
import { withoutUnusedDefinitions } from './compact-tool.js';

/** Splits `snake_case`, `kebab-case` and `camelCase` identifiers into space-separated words. */
export function identifierWords(identifier: string): string {
  return identifier
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export interface ToolDocument {
  /** `server.tool`. */
  id: string;
  server: string;
  name: string;
  title: string;
  description: string;
  parameters: string;
  /** Names of the fields inside the parameters, through `$ref`s: what an object parameter holds. */
  nested: string;
}

/** The property names below a schema's own parameters, in the definitions they refer to too. */
function nestedNames(schema: JsonSchemaObject): string[] {
  const names: string[] = [];
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(collect);
    if (!isRecord(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && isRecord(value)) {
        names.push(...Object.keys(value));
        Object.values(value).forEach(collect);
      } else collect(value);
    }
  };
  // Definitions live at the root; those nothing refers to say nothing about this tool.
  const used = withoutUnusedDefinitions(schema);
  for (const root of [used.properties, used.$defs, used.definitions])
    if (isRecord(root)) Object.values(root).forEach(collect);
  return names;
}

export function toolDocument(tool: ToolSpec): ToolDocument {
  const parameters = Object.keys(tool.inputSchema.properties ?? {});
  return {
    id: displayName(tool),
    server: identifierWords(tool.server),
    name: identifierWords(tool.name),
    title: tool.annotations?.title ?? '',
    description: tool.description,
    parameters: parameters.map(identifierWords).join(' '),
    nested: nestedNames(tool.inputSchema).map(identifierWords).join(' '),
  };
}

/** The whole of what ranks a tool, as one text: what an embedding model reads, and what its cache is keyed by. */
export function toolText(tool: ToolSpec): string {
  const document = toolDocument(tool);
  return [document.server, document.name, document.title, document.description, document.parameters]
    .filter((part) => part !== '')
    .join('\n');
}
