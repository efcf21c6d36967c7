/**
 * What a typed line asks the model, once the servers have had their say: `/server:prompt key=value …`
 * (or `/prompt` when one server has it) runs the server's prompt and its messages are the turn's
 * input; `@server:uri` in a message attaches the resource's text. Anything else is the message as
 * typed. A prompt or a resource that cannot be had is an error before the model sees anything.
 */
import { type PromptInfo, promptUsage } from '../vocabulary/offers.js';
import type { ChatMessage, TurnEvent } from '../vocabulary/types.js';
import { errorMessage } from '../shared/errors.js';

/** What resolving needs from the host. */
export interface OfferHost {
  listPrompts(): Promise<PromptInfo[]>;
  getPrompt(server: string, name: string, args: Record<string, string>): Promise<ChatMessage[]>;
  readResource(server: string, uri: string): Promise<string>;
}

export type ResolvedInput =
  /** `prompt`: the server's prompt the messages are, to be shown before they go (see `prompt-messages`). */
  | { type: 'messages'; messages: ChatMessage[]; notices: string[]; prompt?: { server: string; name: string } }
  /** The line itself is wrong (`usage`, a missing argument), or what it names could not be had. */
  | Extract<TurnEvent, { type: 'error' }>;

/** Resources one message may attach, and characters of each: a mention must not flood the context. */
const MAX_MENTIONS = 5;
const MAX_RESOURCE_CHARS = 20_000;

const PROMPT_LINE = /^\/(\S+)(?:\s+([\s\S]*))?$/;
/** `key=value`, `key="a value"` or `key='a value'`. */
const ARGUMENT = /^([^\s=]+)=(?:"([^"]*)"|'([^']*)'|(\S*))(?:\s+|$)/;
/** `@server:uri`; trailing punctuation belongs to the sentence, not the URI. */
const MENTION = /@([A-Za-z0-9][A-Za-z0-9_-]*):(\S+?)(?=[.,;!?)\]]*(?:\s|$))/g;

/** `key=value …` into its pairs, or the first word that is not one. */
export function parseArguments(text: string): Record<string, string> | string {
  const args: Record<string, string> = {};
  let rest = text.trim();
  while (rest !== '') {
    const match = ARGUMENT.exec(rest);
    if (!match) return rest.split(/\s+/)[0] ?? rest;
    args[match[1] as string] = match[2] ?? match[3] ?? match[4] ?? '';
    rest = rest.slice(match[0].length);
  }
  return args;
}

/** The prompt a `/word` names: `server:name`, or a name only one server has. */
export function findPrompt(word: string, prompts: PromptInfo[]): PromptInfo | PromptInfo[] | undefined {
  const colon = word.indexOf(':');
  if (colon > 0) {
    const server = word.slice(0, colon).toLowerCase();
    const name = word.slice(colon + 1);
    return prompts.find((prompt) => prompt.server.toLowerCase() === server && prompt.name === name);
  }
  const named = prompts.filter((prompt) => prompt.name === word);
  return named.length === 1 ? named[0] : named.length > 1 ? named : undefined;
}

async function runPrompt(
  prompt: PromptInfo,
  argumentText: string,
  given: Record<string, string>,
  host: OfferHost,
): Promise<ResolvedInput> {
  const usage = `Usage: ${promptUsage(prompt)}`;
  const typed = parseArguments(argumentText);
  if (typeof typed === 'string')
    return { type: 'error', message: `prompt arguments are key=value, not "${typed}"`, hint: usage, kind: 'usage' };
  const args = { ...typed, ...given };
  const known = new Set(prompt.arguments.map((arg) => arg.name));
  const unknown = Object.keys(args).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const message = `${prompt.server}:${prompt.name} has no argument ${unknown.map((name) => `"${name}"`).join(', ')}`;
    return { type: 'error', message, hint: usage, kind: 'usage' };
  }
  const missing = prompt.arguments.filter((arg) => arg.required && !(arg.name in args));
  if (missing.length > 0) {
    const names = missing.map((arg) => (arg.description ? `${arg.name} (${arg.description})` : arg.name));
    const message = `${prompt.server}:${prompt.name} needs ${names.join(', ')}`;
    const asked = { prompt: `${prompt.server}:${prompt.name}`, arguments: missing };
    return { type: 'error', message, kind: 'missing-arguments', hint: usage, missing: asked };
  }
  try {
    const messages = await host.getPrompt(prompt.server, prompt.name, args);
    return { type: 'messages', messages, notices: [], prompt: { server: prompt.server, name: prompt.name } };
  } catch (error) {
    return { type: 'error', message: errorMessage(error), kind: 'failed' };
  }
}

/** The message with each `@server:uri` of a configured server followed by the resource's text. */
async function withResources(text: string, host: OfferHost, servers: string[]): Promise<ResolvedInput> {
  const known = new Set(servers.map((server) => server.toLowerCase()));
  const mentions = [...text.matchAll(MENTION)]
    .map(([, server = '', uri = '']) => ({ server, uri }))
    .filter(({ server }) => known.has(server.toLowerCase()));
  const distinct = [...new Map(mentions.map((mention) => [`${mention.server}:${mention.uri}`, mention])).values()];
  if (distinct.length === 0) return { type: 'messages', messages: [{ role: 'user', content: text }], notices: [] };
  if (distinct.length > MAX_MENTIONS) {
    const message = `a message may attach at most ${MAX_MENTIONS} resources; this one names ${distinct.length}`;
    return { type: 'error', message, kind: 'usage' };
  }
  const parts = [text];
  const notices: string[] = [];
  for (const { server, uri } of distinct) {
    let resource: string;
    try {
      resource = await host.readResource(server, uri);
    } catch (error) {
      const hint = `mcp-chat resources lists what each server offers.`;
      return {
        type: 'error',
        message: `could not attach @${server}:${uri}: ${errorMessage(error)}`,
        hint,
        kind: 'failed',
      };
    }
    const cut = resource.length > MAX_RESOURCE_CHARS;
    const body = cut
      ? `${resource.slice(0, MAX_RESOURCE_CHARS)}\n[… cut: ${MAX_RESOURCE_CHARS} of ${resource.length} characters]`
      : resource;
    parts.push(`Resource @${server}:${uri}:\n${body}`);
    notices.push(
      `attached @${server}:${uri} (${resource.length} characters${cut ? `, cut to ${MAX_RESOURCE_CHARS}` : ''})`,
    );
  }
  return { type: 'messages', messages: [{ role: 'user', content: parts.join('\n\n') }], notices };
}

/** `given`: argument values the user gave apart from the line (answers to the REPL's questions). */
export async function resolveTurnInput(
  text: string,
  host: OfferHost,
  servers: string[],
  given: Record<string, string> = {},
): Promise<ResolvedInput> {
  const line = PROMPT_LINE.exec(text.trim());
  if (line) {
    const [, word = '', argumentText = ''] = line;
    const prompts = await host.listPrompts();
    const found = findPrompt(word, prompts);
    if (Array.isArray(found)) {
      const choices = found.map((prompt) => `/${prompt.server}:${prompt.name}`).join(', ');
      return {
        type: 'error',
        message: `more than one server has a prompt "${word}"`,
        hint: `Name one: ${choices}`,
        kind: 'usage',
      };
    }
    if (found) return runPrompt(found, argumentText, given, host);
    const colon = word.indexOf(':');
    if (colon > 0 && servers.some((server) => server.toLowerCase() === word.slice(0, colon).toLowerCase())) {
      const server = word.slice(0, colon);
      const theirs = prompts.filter((prompt) => prompt.server.toLowerCase() === server.toLowerCase());
      const hint =
        theirs.length > 0 ? `Its prompts: ${theirs.map((p) => p.name).join(', ')}` : `${server} offers no prompts.`;
      return {
        type: 'error',
        message: `no prompt "${word.slice(colon + 1)}" on server ${server}`,
        hint,
        kind: 'usage',
      };
    }
  }
  return withResources(text, host, servers);
}
