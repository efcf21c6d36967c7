/**
 * The file MCP server: five tools over a `Sandbox` of allowed roots, taken from the command
 * line or, when it gives none, from the MCP client. Every path goes through the sandbox
 * first; expected failures are `isError` results. No side effects on import.
 */
import { McpServer, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { textResult } from '../shared/tool-results.js';
import { followClientRoots, ROOTS_NOT_YET_RECEIVED } from './client-roots.js';
import { guard } from './file-errors.js';
import { fileInfo } from './file-info.js';
import { listDirectory } from './list-directory.js';
import { DEFAULT_MAX_READ_BYTES, readFileCapped } from './read-file.js';
import { RootState } from './root-state.js';
import type { Sandbox } from './sandbox.js';
import { searchFiles } from './search-files.js';
import { serverInstructions, type ToolTexts, toolTexts } from './tool-texts.js';
import { writeFileAtomic } from './write-file.js';
import { validatorOnFirstUse } from '../shared/validator-on-first-use.js';

export interface FileServerOptions {
  /**
   * Allowed root directories; each must exist. The first is where relative paths start.
   * None (or empty): the client's roots, asked for after initialisation and on each roots/list_changed.
   */
  roots?: readonly string[];
  /** Bytes read_file returns at most; the rest is reported as truncated. */
  maxReadBytes?: number;
  /** Diagnostics about the client's roots; stdout is the JSON-RPC channel, so the default is stderr. */
  log?: (line: string) => void;
}

/** Largest content write_file accepts, so one call cannot fill the disk or the pipe. */
const MAX_WRITE_CHARS = 10 * 1024 * 1024;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** A tool's description and input schema, which name the roots. */
type Described = { description: string; inputSchema: Record<string, z.ZodType> };
/** Describes a tool again for new roots. */
type Redescribe = (texts: ToolTexts) => void;

export function createServer(options: FileServerOptions): McpServer {
  const fromClient = (options.roots ?? []).length === 0;
  const state = fromClient ? RootState.awaiting(ROOTS_NOT_YET_RECEIVED) : RootState.fixed(options.roots ?? []);
  const server = new McpServer(
    { name: 'file', version: '0.1.0' },
    {
      jsonSchemaValidator: validatorOnFirstUse(),
      instructions: serverInstructions(state.sandboxNow),
      // Describing the five tools again for new roots is one change for the client, not five.
      debouncedNotificationMethods: ['notifications/tools/list_changed'],
    },
  );
  const texts = toolTexts(state.sandboxNow);
  const redescribe = [
    registerReadFile(server, state, texts, options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES),
    registerWriteFile(server, state, texts),
    ...registerInspectTools(server, state, texts),
    registerSearchFiles(server, state, texts),
  ];
  if (fromClient) {
    followClientRoots(server.server, state, options.log ?? ((line) => process.stderr.write(`${line}\n`)));
    let shown = texts.where;
    state.onChange((sandbox) => {
      const next = toolTexts(sandbox);
      if (next.where === shown) return;
      shown = next.where;
      for (const again of redescribe) again(next);
    });
  }
  return server;
}

/** Runs a tool body in the current sandbox; no roots yet, a refusal and the rest are `isError` results. */
function inSandbox(
  state: RootState,
  displayPath: string,
  body: (sandbox: Sandbox) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  return guard(displayPath, async () => body(await state.current()));
}

function redescriber(tool: RegisteredTool, describe: (texts: ToolTexts) => Described): Redescribe {
  return (texts) => {
    const { description, inputSchema } = describe(texts);
    tool.update({ description, paramsSchema: inputSchema });
  };
}

function registerReadFile(server: McpServer, state: RootState, texts: ToolTexts, maxReadBytes: number): Redescribe {
  const describe = ({ where, pathArg }: ToolTexts) => ({
    description: `Read a text file and return its content (at most ${maxReadBytes} bytes; longer files are truncated and say so; binary files are described, not shown). ${where}`,
    inputSchema: { path: pathArg },
  });
  const tool = server.registerTool(
    'read_file',
    { title: 'Read file', ...describe(texts), annotations: READ_ONLY },
    ({ path }) =>
      inSandbox(state, path, async (sandbox) =>
        textResult(await readFileCapped(sandbox, await sandbox.resolve(path, 'read'), path, maxReadBytes)),
      ),
  );
  return redescriber(tool, describe);
}

function registerWriteFile(server: McpServer, state: RootState, texts: ToolTexts): Redescribe {
  const describe = ({ where, pathArg }: ToolTexts) => ({
    description: `Create a file or replace its whole content (atomically). Missing parent directories are created. ${where}`,
    inputSchema: {
      path: pathArg,
      content: z.string().max(MAX_WRITE_CHARS).describe('The complete new content of the file (UTF-8 text).'),
    },
  });
  const tool = server.registerTool(
    'write_file',
    {
      title: 'Write file',
      ...describe(texts),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ path, content }) =>
      inSandbox(state, path, async (sandbox) =>
        textResult(await writeFileAtomic(sandbox, await sandbox.resolve(path, 'write'), path, content)),
      ),
  );
  return redescriber(tool, describe);
}

function registerInspectTools(server: McpServer, state: RootState, texts: ToolTexts): Redescribe[] {
  const describeList = ({ where, pathArg }: ToolTexts) => ({
    description: `List the entries of a directory, sorted by name, each marked [DIR], [FILE] or [LINK]. ${where}`,
    inputSchema: { path: pathArg },
  });
  const list = server.registerTool(
    'list_directory',
    { title: 'List directory', ...describeList(texts), annotations: READ_ONLY },
    ({ path }) =>
      inSandbox(state, path, async (sandbox) =>
        textResult(await listDirectory(sandbox, await sandbox.resolve(path, 'read'), path)),
      ),
  );
  const describeInfo = ({ where, pathArg }: ToolTexts) => ({
    description: `Show a file's or directory's type, size, modification time and permissions. ${where}`,
    inputSchema: { path: pathArg },
  });
  const info = server.registerTool(
    'get_file_info',
    { title: 'Get file info', ...describeInfo(texts), annotations: READ_ONLY },
    ({ path }) =>
      inSandbox(state, path, async (sandbox) =>
        textResult(await fileInfo(sandbox, await sandbox.resolve(path, 'read'), path)),
      ),
  );
  return [redescriber(list, describeList), redescriber(info, describeInfo)];
}

function registerSearchFiles(server: McpServer, state: RootState, texts: ToolTexts): Redescribe {
  const describe = ({ where, pathArg }: ToolTexts) => ({
    description:
      'Find files and directories by name, recursively. The pattern is a glob ("*.ts", "src/**/*.test.ts", "*.{md,txt}") ' +
      'or, without glob characters, a case-insensitive part of the name ("config"). Searches under `path`, or the ' +
      `whole first root when it is omitted. Results are bounded; symbolic links are not followed. ${where}`,
    inputSchema: {
      pattern: z.string().describe('Glob or part of a file name.'),
      path: pathArg.optional().describe(`Directory to search under (default: the root). ${where}`),
    },
  });
  const tool = server.registerTool(
    'search_files',
    { title: 'Search files', ...describe(texts), annotations: READ_ONLY },
    ({ pattern, path = '.' }, extra) =>
      inSandbox(state, path, async (sandbox) =>
        textResult(await searchFiles(sandbox, await sandbox.resolve(path, 'read'), path, pattern, extra.signal)),
      ),
  );
  return redescriber(tool, describe);
}
