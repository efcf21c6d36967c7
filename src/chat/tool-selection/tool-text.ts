/**
 * What a tool is found by: its server, name, title, description and parameter names, with
 * identifiers split into words (`browser_navigate`, `API-post-search` and `createEntities` are
 * read as the words a person would type).
 */
import { displayName } from '../tool-naming.js';
import type { ToolSpec } from '../types.js';

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
  };
}

/** The whole of what ranks a tool, as one text: what an embedding model reads, and what its cache is keyed by. */
export function toolText(tool: ToolSpec): string {
  const document = toolDocument(tool);
  return [document.server, document.name, document.title, document.description, document.parameters]
    .filter((part) => part !== '')
    .join('\n');
}
