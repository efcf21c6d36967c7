/**
 * What a server offers besides tools, in our terms: its prompts (run with `prompts/get`, their
 * messages becoming a turn's input) and its resources (read with `resources/read`, their text
 * attached to a message). Only what the server declares is asked for.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { PromptInfo, ResourceInfo, ResourceTemplateInfo } from '../vocabulary/offers.js';
import type { ChatMessage } from '../vocabulary/types.js';
import { resultText } from './content.js';
import { allPages } from './paginate.js';

/** Optional fields only when the server gave them, so `--json` shows no `undefined`s. */
function present<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}

export async function listPrompts(client: Client, server: string): Promise<PromptInfo[]> {
  if (!client.getServerCapabilities()?.prompts) return [];
  const prompts = await allPages(async (cursor) => {
    const page = await client.listPrompts(cursor ? { cursor } : undefined);
    return { items: page.prompts, nextCursor: page.nextCursor };
  });
  return prompts.map((prompt) => ({
    server,
    name: prompt.name,
    ...present({ title: prompt.title, description: prompt.description }),
    arguments: (prompt.arguments ?? []).map((argument) => ({
      name: argument.name,
      ...present({ description: argument.description }),
      required: argument.required === true,
    })),
  }));
}

export async function listResources(client: Client, server: string): Promise<ResourceInfo[]> {
  if (!client.getServerCapabilities()?.resources) return [];
  const resources = await allPages(async (cursor) => {
    const page = await client.listResources(cursor ? { cursor } : undefined);
    return { items: page.resources, nextCursor: page.nextCursor };
  });
  return resources.map(({ uri, name, title, description, mimeType }) => ({
    server,
    uri,
    name,
    ...present({ title, description, mimeType }),
  }));
}

export async function listResourceTemplates(client: Client, server: string): Promise<ResourceTemplateInfo[]> {
  if (!client.getServerCapabilities()?.resources) return [];
  const templates = await allPages(async (cursor) => {
    const page = await client.listResourceTemplates(cursor ? { cursor } : undefined);
    return { items: page.resourceTemplates, nextCursor: page.nextCursor };
  });
  return templates.map(({ uriTemplate, name, title, description, mimeType }) => ({
    server,
    uriTemplate,
    name,
    ...present({ title, description, mimeType }),
  }));
}

type ContentBlock = CallToolResult['content'][number];

/** One block as the model reads it: the same words a tool result's block would give. */
function blockText(block: ContentBlock): string {
  return resultText({ content: [block] });
}

/** A prompt's messages as conversation messages, in order (resources embedded as their text). */
export function promptMessages(result: GetPromptResult): ChatMessage[] {
  return result.messages.map(({ role, content }) => ({ role, content: blockText(content) }));
}

/** A resource's contents as text: each text part whole, each binary part one line. */
export function resourceText(result: ReadResourceResult): string {
  return result.contents
    .map((part) =>
      'text' in part
        ? part.text
        : `[binary ${part.mimeType ?? 'data'} ${part.uri}, ${Math.round((part.blob.length * 3) / 4)} bytes]`,
    )
    .join('\n');
}
