/**
 * The tool registry: every ready server's tools, as the model sees them. Rebuilt only when a
 * server's tool list changes (each list is a new array), so the same catalogue comes back meanwhile.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaObject, ToolSpec } from '../vocabulary/types.js';
import type { ManagedServer } from './managed-server.js';

export class ToolCatalogue {
  /** The last catalogue built, with the server lists it was built from (replaced, never mutated). */
  private last: { from: Tool[][]; specs: ToolSpec[] } | undefined;

  of(servers: readonly ManagedServer[]): ToolSpec[] {
    const from = servers.map((server) => server.listTools());
    const cached = this.last;
    const same = cached && from.length === cached.from.length && from.every((tools, i) => tools === cached.from[i]);
    if (same) return cached.specs;
    const specs = from.flatMap((tools, index) => {
      const server = servers[index] as ManagedServer;
      const instructions = server.instructions();
      return tools.map((tool) => ({
        server: server.name,
        name: tool.name,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema as JsonSchemaObject,
        annotations: tool.annotations,
        ...(instructions === undefined ? {} : { serverInstructions: instructions }),
      }));
    });
    this.last = { from, specs };
    return specs;
  }
}
