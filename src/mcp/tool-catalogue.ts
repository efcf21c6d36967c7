/**
 * The tool registry: every ready server's tools, as the model sees them, each under a name that
 * reaches it alone (tool-names.ts). Rebuilt only when a server's tool list or the set of servers
 * changes (each list is a new array), so the same catalogue comes back meanwhile.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaObject, ToolSpec } from '../vocabulary/types.js';
import type { ManagedServer } from './managed-server.js';
import { nameTools } from './tool-names.js';

interface Built {
  from: Tool[][];
  servers: string[];
  specs: ToolSpec[];
  /** Per server (lower case): the name offered → the server's own name for the tool. */
  originals: Map<string, Map<string, string>>;
  warnings: string[];
}

export class ToolCatalogue {
  /** The last catalogue built, with what it was built from (replaced, never mutated). */
  private last: Built | undefined;
  private readonly warned = new Set<string>();

  /** `onWarning`: each collision line, once. */
  constructor(private readonly onWarning: (line: string) => void = () => undefined) {}

  of(servers: readonly ManagedServer[]): ToolSpec[] {
    return this.built(servers).specs;
  }

  /** The server's own name for the tool offered as `name`, when it is offered. */
  original(servers: readonly ManagedServer[], server: string, name: string): string | undefined {
    return this.built(servers).originals.get(server.toLowerCase())?.get(name);
  }

  /** A line per tool renamed or left out for its name. */
  warnings(servers: readonly ManagedServer[]): string[] {
    return this.built(servers).warnings;
  }

  private built(servers: readonly ManagedServer[]): Built {
    const from = servers.map((server) => server.listTools());
    const names = servers.map((server) => server.name);
    const cached = this.last;
    const same =
      cached &&
      from.length === cached.from.length &&
      from.every((tools, i) => tools === cached.from[i] && names[i] === cached.servers[i]);
    if (same) return cached;
    this.last = build(servers, from);
    for (const line of this.last.warnings.filter((warning) => !this.warned.has(warning))) {
      this.warned.add(line);
      this.onWarning(line);
    }
    return this.last;
  }
}

function build(servers: readonly ManagedServer[], from: Tool[][]): Built {
  const naming = nameTools(
    servers.map((server, i) => ({ server: server.name, tools: (from[i] ?? []).map((t) => t.name) })),
  );
  const originals = new Map<string, Map<string, string>>();
  const specs = from.flatMap((tools, index) => {
    const server = servers[index] as ManagedServer;
    const offered = naming.names[index] ?? new Map<string, never>();
    const own = new Map<string, string>();
    originals.set(server.name.toLowerCase(), own);
    const instructions = server.instructions();
    return tools.flatMap((tool): ToolSpec[] => {
      const named = offered.get(tool.name);
      if (!named) return [];
      own.set(named.name, tool.name);
      const description = tool.description ?? '';
      return [
        {
          server: server.name,
          name: named.name,
          description: named.note === undefined ? description : `${named.note} ${description}`.trim(),
          inputSchema: tool.inputSchema as JsonSchemaObject,
          annotations: tool.annotations,
          ...(instructions === undefined ? {} : { serverInstructions: instructions }),
        },
      ];
    });
  });
  return { from, servers: servers.map((server) => server.name), specs, originals, warnings: naming.warnings };
}
