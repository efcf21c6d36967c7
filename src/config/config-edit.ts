/**
 * Adds and removes server entries in a config file's text, as `mcp-chat mcp add|remove` do: only
 * the entry changes, byte for byte the rest of the file (its order, spacing, other keys) stays
 * as the user wrote it — jsonc-parser edits the text in place rather than printing it anew.
 */
// The package's ESM build: its UMD main loads its parts with a require the bundle cannot follow.
import {
  applyEdits,
  format,
  type FormattingOptions,
  modify,
  parse,
  type ParseError,
} from 'jsonc-parser/lib/esm/main.js';
import { ConfigError } from '../shared/errors.js';
import { isRecord } from '../shared/is-record.js';

/**
 * `value` set at `path` (undefined removes it). Only what the edit inserts is laid out, in the
 * file's own indentation: formatting the whole parent would rewrite the neighbours' layout too.
 */
function edit(text: string, path: string[], value: unknown): string {
  const edits = modify(text, path, value, {});
  let edited = applyEdits(text, edits);
  for (const inserted of edits.filter((one) => one.content !== '')) {
    const range = { offset: inserted.offset, length: inserted.content.length };
    edited = applyEdits(edited, format(edited, range, formatting(text)));
  }
  return edited;
}

/** Claude Desktop's key, and the snake-case one mcp-chat also reads. */
const SERVER_KEYS = ['mcpServers', 'mcp_servers'] as const;

function parseObject(text: string, file: string): Record<string, unknown> {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length > 0 || !isRecord(value))
    throw new ConfigError(`${file} is not a JSON object; fix it first (mcp-chat doctor shows where)`);
  return value;
}

/** The file's own indentation, so an added entry looks like its neighbours. */
function formatting(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return { insertSpaces: !indent.startsWith('\t'), tabSize: indent.startsWith('\t') ? 1 : indent.length, eol: '\n' };
}

function serverKey(config: Record<string, unknown>): (typeof SERVER_KEYS)[number] {
  return SERVER_KEYS.find((key) => key in config) ?? 'mcpServers';
}

export function serverNames(text: string, file: string): string[] {
  const config = parseObject(text, file);
  const servers = config[serverKey(config)];
  return isRecord(servers) ? Object.keys(servers) : [];
}

/** The text with `entry` as server `name`; an existing one is replaced only with `force`. */
export function addServerEntry(
  text: string,
  file: string,
  name: string,
  entry: Record<string, unknown>,
  force: boolean,
): string {
  const config = parseObject(text, file);
  const exists = serverNames(text, file).find((known) => known.toLowerCase() === name.toLowerCase());
  if (exists !== undefined && !force)
    throw new ConfigError(
      `${file} already has a server "${exists}"`,
      'Pass --force to replace it, or choose another name',
    );
  const key = serverKey(config);
  const cleared = exists !== undefined && exists !== name ? removeServerEntry(text, file, exists) : text;
  return edit(cleared, [key, name], entry);
}

/** The text without server `name`. */
export function removeServerEntry(text: string, file: string, name: string): string {
  const config = parseObject(text, file);
  const found = serverNames(text, file).find((known) => known.toLowerCase() === name.toLowerCase());
  if (found === undefined) {
    const known = serverNames(text, file).join(', ') || 'none';
    throw new ConfigError(`${file} has no server "${name}" (its servers: ${known})`);
  }
  return edit(text, [serverKey(config), found], undefined);
}
