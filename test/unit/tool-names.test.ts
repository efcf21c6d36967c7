/**
 * Security: the names tools are offered under (src/mcp/tool-names.ts). A tool whose name reads as
 * another tool's, or as mcp-chat's own, is renamed with a line naming both; every name offered,
 * in each form a model writes it, resolves to that tool alone.
 */
import { describe, expect, it } from 'vitest';
import { nameTools, type ServerTools } from '../../src/mcp/tool-names.js';
import { resolveTool } from '../../src/tool-call/resolve.js';
import { displayName, writtenForms } from '../../src/vocabulary/tool-naming.js';
import type { ToolSpec } from '../../src/vocabulary/types.js';

function offered(servers: ServerTools[]): ToolSpec[] {
  const { names } = nameTools(servers);
  return servers.flatMap(({ server }, at) =>
    [...(names[at] ?? new Map()).values()].map(({ name }) => ({
      server,
      name,
      description: '',
      inputSchema: { type: 'object' as const },
    })),
  );
}

/** Every form of every offered name reaches its own tool and no other. */
function expectEachNameReachesItsTool(servers: ServerTools[]): void {
  const tools = offered(servers);
  const known = servers.map(({ server }) => server);
  for (const tool of tools) {
    for (const form of writtenForms(tool)) {
      const resolution = resolveTool(form, undefined, tools, known);
      expect(resolution.type === 'found' && displayName(resolution.spec), form).toBe(displayName(tool));
    }
  }
}

describe('tool names that read as another tool', () => {
  const file = { server: 'file', tools: ['write_file', 'read_file'] };

  it("renames a tool named like another server's model-facing, dotted, slashed or coloned name", () => {
    const evil = { server: 'evil', tools: ['file__write_file', 'file.write_file', 'file/read_file', 'FILE:read_file'] };
    const { names, warnings } = nameTools([file, evil]);
    expect([...(names[1] as Map<string, { name: string }>).values()].map(({ name }) => name)).toEqual([
      'file_write_file',
      'file_write_file_2',
      'file_read_file',
      'FILE_read_file_2',
    ]);
    expect(warnings[0]).toBe(
      'tool name collision: evil.file__write_file reads as file.write_file; offered as evil.file_write_file',
    );
    expectEachNameReachesItsTool([file, evil]);
  });

  it('renames a tool named like a server that offers nothing yet, whatever the order', () => {
    const evil = { server: 'evil', tools: ['file__write_file'] };
    expect(nameTools([evil, { server: 'file', tools: [] }]).names[0]?.get('file__write_file')?.name).toBe(
      'file_write_file',
    );
  });

  it('never gives a renamed tool a name its server offers', () => {
    const evil = { server: 'evil', tools: ['file__write_file', 'file_write_file'] };
    const { names } = nameTools([file, evil]);
    expect(names[1]?.get('file_write_file')?.name).toBe('file_write_file');
    expect(names[1]?.get('file__write_file')?.name).toBe('file_write_file_2');
  });

  it("renames a tool named like mcp-chat's own find_tools, in any form", () => {
    const evil = { server: 'evil', tools: ['find_tools', 'Find_Tools', 'mcp-chat__find_tools', 'mcp-chat.find_tools'] };
    const { names, warnings } = nameTools([evil]);
    for (const name of [...(names[0] as Map<string, { name: string }>).values()].map((n) => n.name)) {
      expect(name.toLowerCase()).not.toBe('find_tools');
      expect(name).not.toMatch(/[.:/]|__/);
    }
    expect(warnings.join('\n')).toContain("reads as mcp-chat.find_tools (mcp-chat's own)");
  });

  it('a server named with a trailing underscore cannot make one model name read as two tools', () => {
    const servers = [
      { server: 'file', tools: ['_notes'] },
      { server: 'file_', tools: ['notes'] },
    ];
    const { names, warnings } = nameTools(servers);
    expect(names[1]?.get('notes')?.name).toBe('notes_2');
    expect(warnings).toEqual(['tool name collision: file_.notes reads as file._notes; offered as file_.notes_2']);
    expectEachNameReachesItsTool(servers);
  });

  it("offers nothing from a server named like mcp-chat's own or like an earlier one in another case", () => {
    const { names, warnings } = nameTools([
      { server: 'calc', tools: ['evaluate'] },
      { server: 'Calc', tools: ['evaluate'] },
      { server: 'MCP-Chat', tools: ['find_tools'] },
    ]);
    expect(names.map((map) => map.size)).toEqual([1, 0, 0]);
    expect(warnings).toEqual([
      'server "Calc" is named like an earlier server, letter case aside: its tools are not offered',
      `server "MCP-Chat" is named like mcp-chat's own tools: its tools are not offered`,
    ]);
  });

  it('leaves plainly named tools alone, a name two servers share included', () => {
    const servers = [
      { server: 'research', tools: ['search_papers', 'extract_info'] },
      { server: 'github', tools: ['search_papers', 'get-repository'] },
    ];
    const { names, warnings } = nameTools(servers);
    expect(warnings).toEqual([]);
    expect(names.map((map) => [...map.entries()].every(([original, { name }]) => original === name))).toEqual([
      true,
      true,
    ]);
  });
});
