/**
 * Routes the name a model wrote to one real tool: `tool`, `server.tool`, `server__tool`
 * (also `/` and `:`), with or without a separate server. Policy: server names match
 * case-insensitively; a unique tool name wins over a wrong server; a name several
 * servers share needs its server; nothing is guessed beyond letter case.
 */
import type { ToolSpec } from '../types.js';

export type Resolution =
  | { type: 'found'; spec: ToolSpec }
  | { type: 'unknown' }
  | { type: 'ambiguous'; candidates: ToolSpec[] };

const SEPARATORS = ['__', '.', '/', ':'];

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

/** Every (server, tool) reading of a qualified name such as `github.list_files`. */
function qualifiedReadings(name: string): [string, string][] {
  const readings: [string, string][] = [];
  for (const separator of SEPARATORS) {
    for (const at of new Set([name.indexOf(separator), name.lastIndexOf(separator)])) {
      if (at > 0 && at + separator.length < name.length) {
        readings.push([name.slice(0, at), name.slice(at + separator.length)]);
      }
    }
  }
  return readings;
}

export function resolveTool(name: string, server: string | undefined, tools: ToolSpec[]): Resolution {
  const trimmedName = name.trim();
  const trimmedServer = server?.trim() || undefined;
  const direct = byName(trimmedName, trimmedServer, tools);
  if (direct.type !== 'unknown') return direct;
  for (const [prefix, rest] of qualifiedReadings(trimmedName)) {
    const found = byName(rest, prefix, tools);
    if (found.type === 'found' && same(found.spec.server, prefix)) return found;
  }
  for (const [, rest] of qualifiedReadings(trimmedName)) {
    const found = byName(rest, trimmedServer, tools);
    if (found.type !== 'unknown') return found;
  }
  return { type: 'unknown' };
}

/** The tool a name (and optional server) refers to, when exactly one fits. */
export function resolveToolName(name: string, server: string | undefined, tools: ToolSpec[]): ToolSpec | undefined {
  const resolution = resolveTool(name, server, tools);
  return resolution.type === 'found' ? resolution.spec : undefined;
}

export function qualifiedName(tool: ToolSpec): string {
  return `${tool.server}.${tool.name}`;
}
