/**
 * Routes the name a model wrote to one real tool: `tool`, `server.tool`, `server__tool`
 * (also `/` and `:`), with or without a separate server. Policy: server names match
 * case-insensitively; a name several servers share needs its server; nothing is guessed
 * beyond letter case. Given the configured servers (`knownServers`), a call that names a
 * configured server is never re-routed to another one: if that server lacks the tool, the
 * answer is `wrong-server` with its own tools. Without that list (the legacy lookup), a
 * unique tool name wins over a wrong server.
 */
import { nameReadings } from '../vocabulary/tool-naming.js';
import type { ToolSpec } from '../vocabulary/types.js';

export type Resolution =
  | { type: 'found'; spec: ToolSpec }
  | { type: 'unknown' }
  | { type: 'ambiguous'; candidates: ToolSpec[] }
  /** The model named configured server `server`, which has no tool `tool`; `tools` are the ones it has. */
  | { type: 'wrong-server'; server: string; tool: string; tools: ToolSpec[] };

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

function pick(matches: ToolSpec[]): Resolution {
  const [first] = matches;
  if (first === undefined) return { type: 'unknown' };
  return matches.length === 1 ? { type: 'found', spec: first } : { type: 'ambiguous', candidates: matches };
}

function byName(name: string, server: string | undefined, tools: ToolSpec[]): Resolution {
  const named = tools.filter((tool) => tool.name === name);
  const onServer = server === undefined ? [] : named.filter((tool) => same(tool.server, server));
  if (onServer.length > 0) return pick(onServer);
  const exact = pick(named);
  if (exact.type !== 'unknown') return exact;
  // Letter case is the one slip tolerated in tool names: `Evaluate` is still `evaluate`.
  const folded = tools.filter((tool) => same(tool.name, name));
  const foldedOnServer = server === undefined ? [] : folded.filter((tool) => same(tool.server, server));
  return pick(foldedOnServer.length > 0 ? foldedOnServer : folded);
}

/** The legacy lookup: a unique tool name wins even over a server that exists. */
function resolveLoosely(name: string, server: string | undefined, tools: ToolSpec[]): Resolution {
  const direct = byName(name, server, tools);
  if (direct.type !== 'unknown') return direct;
  for (const reading of nameReadings(name)) {
    const found = byName(reading.tool, reading.server, tools);
    if (found.type === 'found' && same(found.spec.server, reading.server)) return found;
  }
  for (const reading of nameReadings(name)) {
    const found = byName(reading.tool, server, tools);
    if (found.type !== 'unknown') return found;
  }
  return { type: 'unknown' };
}

const configured = (server: string, known: string[]): string | undefined => known.find((name) => same(name, server));

/**
 * The tool `name` on configured server `server` only. A qualified name may repeat that
 * server or carry a template namespace (`functions.evaluate`), never name a second
 * configured server.
 */
function onServer(name: string, server: string, tools: ToolSpec[], known: string[]): Resolution {
  const own = tools.filter((tool) => same(tool.server, server));
  const direct = byName(name, undefined, own);
  if (direct.type !== 'unknown') return direct;
  for (const reading of nameReadings(name)) {
    const other = configured(reading.server, known);
    if (other !== undefined && !same(other, server)) continue;
    const found = byName(reading.tool, undefined, own);
    if (found.type !== 'unknown') return found;
  }
  return { type: 'wrong-server', server, tool: name, tools: own };
}

/**
 * No configured server was written: a qualified name that names one binds like a written server.
 * Security: before a tool that bears the whole name, so a server's tool named `file__write_file`
 * cannot take the calls a model writes for file's `write_file` (the host renames such tools too).
 */
function resolveUnbound(name: string, tools: ToolSpec[], known: string[]): Resolution {
  let refused: Resolution | undefined;
  for (const reading of nameReadings(name)) {
    const server = configured(reading.server, known);
    if (server === undefined) continue;
    const found = onServer(reading.tool, server, tools, known);
    if (found.type !== 'wrong-server') return found;
    refused ??= found;
  }
  if (refused) return refused;
  const direct = byName(name, undefined, tools);
  if (direct.type !== 'unknown') return direct;
  for (const reading of nameReadings(name)) {
    const found = byName(reading.tool, undefined, tools);
    if (found.type !== 'unknown') return found;
  }
  return { type: 'unknown' };
}

/**
 * Resolves a written call. `knownServers`: the configured servers (running or not); when
 * given, naming one of them pins the call to it.
 */
export function resolveTool(
  name: string,
  server: string | undefined,
  tools: ToolSpec[],
  knownServers?: string[],
): Resolution {
  const trimmedName = name.trim();
  const trimmedServer = server?.trim() || undefined;
  if (knownServers === undefined) return resolveLoosely(trimmedName, trimmedServer, tools);
  const pinned = trimmedServer === undefined ? undefined : configured(trimmedServer, knownServers);
  if (pinned !== undefined) return onServer(trimmedName, pinned, tools, knownServers);
  return resolveUnbound(trimmedName, tools, knownServers);
}

/** The tool a name (and optional server) refers to, when exactly one fits. */
export function resolveToolName(
  name: string,
  server: string | undefined,
  tools: ToolSpec[],
  knownServers?: string[],
): ToolSpec | undefined {
  const resolution = resolveTool(name, server, tools, knownServers);
  return resolution.type === 'found' ? resolution.spec : undefined;
}
