/**
 * The names tools are offered under, so that every name a model writes reaches exactly one tool.
 * Policy: a tool whose name reads as another tool's (`file__write_file` or `file.write_file` on a
 * server `evil`; mcp-chat's own `find_tools`; `_notes` on `file` beside `notes` on `file_`) is
 * renamed, and says so; the tools named plainly keep their names, and a new name is never one a
 * server offers. A server named like mcp-chat's own, or like an earlier one in another case, offers none.
 */
import {
  BUILT_IN_SERVER,
  FIND_TOOLS_NAME,
  displayName,
  nameReadings,
  writtenForms,
} from '../vocabulary/tool-naming.js';

export interface ServerTools {
  server: string;
  tools: string[];
}

export interface OfferedName {
  name: string;
  /** Set when renamed: what the original name read as, for the tool's description. */
  note?: string;
}

export interface ToolNames {
  /** Per server, in the order given: each offered tool's original name → how it is offered. */
  names: Map<string, OfferedName>[];
  /** One line per renamed or withheld tool, naming both sides. */
  warnings: string[];
}

/** Suffixes tried for a new name (`name_2`…) before the tool is left out: far more than real servers need. */
const MAX_SUFFIX = 100;

const key = (server: string, tool: string): string => `${server.toLowerCase()}\u0000${tool.toLowerCase()}`;

/** The tools named so far, every form a model may write for them, and every tool those forms read as. */
class NameIndex {
  private readonly tools = new Map<string, string>();
  private readonly forms = new Map<string, string>();
  private readonly readings = new Map<string, string>();

  add(server: string, tool: string): void {
    const shown = displayName({ server, tool });
    this.tools.set(key(server, tool), shown);
    for (const form of writtenForms({ server, tool })) {
      this.forms.set(form.toLowerCase(), shown);
      for (const reading of nameReadings(form)) this.readings.set(key(reading.server, reading.tool), shown);
    }
  }

  /** A tool named already that a model's name for `server`'s `tool` could also reach, letter case aside. */
  clash(server: string, tool: string): string | undefined {
    const own = key(server, tool);
    const clash = this.tools.get(own) ?? this.readings.get(own);
    if (clash) return clash;
    for (const form of writtenForms({ server, tool })) {
      const same = this.forms.get(form.toLowerCase());
      if (same) return same;
      for (const reading of nameReadings(form)) {
        const other = key(reading.server, reading.tool);
        if (other !== own && this.tools.has(other)) return this.tools.get(other);
      }
    }
    return undefined;
  }
}

/**
 * Security: what a bare tool name reads as, whoever else is there: mcp-chat's own tool, or a tool of
 * a configured server (`known`, lower case). The model writes bare names too, and the detector
 * reads `file__write_file` as file's `write_file`.
 */
function readsAs(tool: string, known: Set<string>): string | undefined {
  if (tool.toLowerCase() === FIND_TOOLS_NAME)
    return `${displayName({ server: BUILT_IN_SERVER, tool: FIND_TOOLS_NAME })} (mcp-chat's own)`;
  const reading = nameReadings(tool).find((read) => known.has(read.server.toLowerCase()));
  return reading && displayName(reading);
}

/** The name's separators (`__`, `.`, `/`, `:`) made single underscores, and none at either end. */
function plain(tool: string): string {
  return tool.replace(/_{2,}|[./:]+/g, '_').replace(/^_+|_+$/g, '') || 'tool';
}

export function nameTools(servers: ServerTools[]): ToolNames {
  const known = new Set([BUILT_IN_SERVER, ...servers.map(({ server }) => server.toLowerCase())]);
  const index = new NameIndex();
  index.add(BUILT_IN_SERVER, FIND_TOOLS_NAME);
  const warnings: string[] = [];
  const names = servers.map(() => new Map<string, OfferedName>());
  const deferred: { at: number; tool: string; clash: string }[] = [];
  const seen = new Set<string>();
  for (const [at, { server, tools }] of servers.entries()) {
    // Security: the host finds servers in any case; neither a second `File` nor a `mcp-chat` may answer.
    const lower = server.toLowerCase();
    if (seen.has(lower) || lower === BUILT_IN_SERVER) {
      const like = lower === BUILT_IN_SERVER ? "mcp-chat's own tools" : 'an earlier server, letter case aside';
      if (tools.length > 0) warnings.push(`server "${server}" is named like ${like}: its tools are not offered`);
      continue;
    }
    seen.add(lower);
    for (const tool of tools) {
      const clash = readsAs(tool, known) ?? index.clash(server, tool);
      if (clash) deferred.push({ at, tool, clash });
      else {
        index.add(server, tool);
        (names[at] as Map<string, OfferedName>).set(tool, { name: tool });
      }
    }
  }
  for (const { at, tool, clash } of deferred) {
    const { server, tools } = servers[at] as ServerTools;
    const name = freshName(server, tool, new Set(tools.map((offered) => offered.toLowerCase())), known, index);
    const shown = displayName({ server, tool });
    if (name === undefined) {
      warnings.push(`tool name collision: ${shown} reads as ${clash}; it is not offered`);
      continue;
    }
    index.add(server, name);
    (names[at] as Map<string, OfferedName>).set(tool, {
      name,
      note: `Renamed by mcp-chat from ${JSON.stringify(tool)}, which reads as ${clash}.`,
    });
    warnings.push(`tool name collision: ${shown} reads as ${clash}; offered as ${displayName({ server, tool: name })}`);
  }
  return { names, warnings };
}

/** A name for a renamed tool that reads as nothing else and that its server does not offer (`offered`, lower case). */
function freshName(
  server: string,
  tool: string,
  offered: Set<string>,
  known: Set<string>,
  index: NameIndex,
): string | undefined {
  const base = plain(tool);
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const name = n === 1 ? base : `${base}_${n}`;
    if (!offered.has(name.toLowerCase()) && !readsAs(name, known) && !index.clash(server, name)) return name;
  }
  return undefined;
}
