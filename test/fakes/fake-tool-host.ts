/**
 * An in-process tool host for orchestrator tests: a few tools with real behaviour
 * (arithmetic, an in-memory file store, a call that waits to be cancelled).
 */
import type { ToolCall, ToolResult, ToolSpec } from '../../src/vocabulary/types.js';
import type { ServerStatus } from '../../src/session/chat-session.js';
import { InProcessHost } from './in-process-host.js';

const object = (properties: Record<string, unknown>, required: string[]): ToolSpec['inputSchema'] => ({
  type: 'object',
  properties,
  required,
});

export const FAKE_TOOLS: ToolSpec[] = [
  {
    server: 'calculator',
    name: 'evaluate',
    description: 'Evaluate an arithmetic expression',
    inputSchema: object({ expression: { type: 'string' } }, ['expression']),
    annotations: { readOnlyHint: true },
  },
  {
    server: 'file',
    name: 'read_file',
    description: 'Read a file',
    inputSchema: object({ path: { type: 'string' } }, ['path']),
    annotations: { readOnlyHint: true },
  },
  {
    server: 'file',
    name: 'write_file',
    description: 'Write a file',
    inputSchema: object({ path: { type: 'string' }, content: { type: 'string' } }, ['path', 'content']),
    annotations: { destructiveHint: true },
  },
  {
    server: 'slow',
    name: 'wait',
    description: 'Wait until cancelled',
    inputSchema: object({}, []),
    annotations: { readOnlyHint: true },
  },
];

function text(forModel: string, isError = false): ToolResult {
  return { isError, forModel, durationMs: 1 };
}

export class FakeToolHost extends InProcessHost {
  readonly calls: ToolCall[] = [];
  readonly files = new Map<string, string>();
  cancelled = 0;

  listTools(): ToolSpec[] {
    return FAKE_TOOLS;
  }

  /** Every server of the catalogue, ready. */
  statuses(): ServerStatus[] {
    const tools = this.listTools();
    const servers = [...new Set(tools.map((tool) => tool.server))];
    return servers.map((name) => ({
      name,
      kind: 'stdio',
      state: 'ready',
      toolCount: tools.filter((t) => t.server === name).length,
      startMs: 12,
    }));
  }

  requiresApproval(call: ToolCall): boolean {
    return FAKE_TOOLS.find((t) => t.server === call.server && t.name === call.tool)?.annotations?.readOnlyHint !== true;
  }

  async callTool(call: ToolCall, signal?: AbortSignal): Promise<ToolResult> {
    this.calls.push(call);
    const key = `${call.server}.${call.tool}`;
    switch (key) {
      case 'calculator.evaluate': {
        const match = /^\s*(\d+)\s*([*+-])\s*(\d+)\s*$/.exec(String(call.arguments.expression));
        if (!match) return text('Error: unsupported expression', true);
        const [a, op, b] = [Number(match[1]), match[2], Number(match[3])];
        return text(String(op === '*' ? a * b : op === '+' ? a + b : a - b));
      }
      case 'file.read_file':
        return this.files.has(String(call.arguments.path))
          ? text(this.files.get(String(call.arguments.path)) ?? '')
          : text(`Error: no such file ${String(call.arguments.path)}`, true);
      case 'file.write_file':
        this.files.set(String(call.arguments.path), String(call.arguments.content));
        return text(`wrote ${String(call.arguments.path)}`);
      case 'slow.wait':
        return new Promise((resolve) => {
          signal?.addEventListener(
            'abort',
            () => {
              this.cancelled += 1;
              resolve(text('slow.wait was cancelled by the user.', true));
            },
            { once: true },
          );
        });
      default:
        return text(`Unknown tool ${key}`, true);
    }
  }
}
