/**
 * The file MCP server: five tools over a `Sandbox` of allowed roots. Every path goes
 * through the sandbox first; expected failures are `isError` results. No side effects on import.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { textResult } from '../shared/tool-results.js';
import { guard } from './file-errors.js';
import { fileInfo } from './file-info.js';
import { listDirectory } from './list-directory.js';
import { DEFAULT_MAX_READ_BYTES, readFileCapped } from './read-file.js';
import { Sandbox } from './sandbox.js';
import { searchFiles } from './search-files.js';
import { writeFileAtomic } from './write-file.js';

export interface FileServerOptions {
  /** Allowed root directories; each must exist. The first is where relative paths start. */
  roots: string[];
  /** Bytes read_file returns at most; the rest is reported as truncated. */
  maxReadBytes?: number;
}

/** Largest content write_file accepts, so one call cannot fill the disk or the pipe. */
const MAX_WRITE_CHARS = 10 * 1024 * 1024;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

interface ToolContext {
  readonly sandbox: Sandbox;
  /** The sentence every description ends with: where paths start and what is allowed. */
  readonly where: string;
  readonly pathArg: z.ZodString;
}

export function createServer(options: FileServerOptions): McpServer {
  const sandbox = new Sandbox(options.roots);
  const roots = sandbox.roots.join(', ');
  const where =
    `Paths are relative to the root directory ${sandbox.primaryRoot}; absolute paths are accepted only inside ` +
    `the allowed roots (${roots}). Use "." for the root itself.`;
  const context: ToolContext = {
    sandbox,
    where,
    pathArg: z.string().describe(`File or directory path, e.g. "src/index.ts". ${where}`),
  };
  const server = new McpServer(
    { name: 'file', version: '0.1.0' },
    { instructions: `Reads and writes files inside ${roots}. ${where}` },
  );
  registerReadFile(server, context, options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES);
  registerWriteFile(server, context);
  registerInspectTools(server, context);
  registerSearchFiles(server, context);
  return server;
}

function registerReadFile(server: McpServer, { sandbox, where, pathArg }: ToolContext, maxReadBytes: number): void {
  server.registerTool(
    'read_file',
    {
      title: 'Read file',
      description: `Read a text file and return its content (at most ${maxReadBytes} bytes; longer files are truncated and say so; binary files are described, not shown). ${where}`,
      inputSchema: { path: pathArg },
      annotations: READ_ONLY,
    },
    ({ path }) =>
      guard(path, async () =>
        textResult(await readFileCapped(sandbox, await sandbox.resolve(path, 'read'), path, maxReadBytes)),
      ),
  );
}

function registerWriteFile(server: McpServer, { sandbox, where, pathArg }: ToolContext): void {
  server.registerTool(
    'write_file',
    {
      title: 'Write file',
      description: `Create a file or replace its whole content (atomically). Missing parent directories are created. ${where}`,
      inputSchema: {
        path: pathArg,
        content: z.string().max(MAX_WRITE_CHARS).describe('The complete new content of the file (UTF-8 text).'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ path, content }) =>
      guard(path, async () =>
        textResult(await writeFileAtomic(sandbox, await sandbox.resolve(path, 'write'), path, content)),
      ),
  );
}

function registerInspectTools(server: McpServer, { sandbox, where, pathArg }: ToolContext): void {
  server.registerTool(
    'list_directory',
    {
      title: 'List directory',
      description: `List the entries of a directory, sorted by name, each marked [DIR], [FILE] or [LINK]. ${where}`,
      inputSchema: { path: pathArg },
      annotations: READ_ONLY,
    },
    ({ path }) =>
      guard(path, async () => textResult(await listDirectory(sandbox, await sandbox.resolve(path, 'read'), path))),
  );
  server.registerTool(
    'get_file_info',
    {
      title: 'Get file info',
      description: `Show a file's or directory's type, size, modification time and permissions. ${where}`,
      inputSchema: { path: pathArg },
      annotations: READ_ONLY,
    },
    ({ path }) =>
      guard(path, async () => textResult(await fileInfo(sandbox, await sandbox.resolve(path, 'read'), path))),
  );
}

function registerSearchFiles(server: McpServer, { sandbox, where, pathArg }: ToolContext): void {
  server.registerTool(
    'search_files',
    {
      title: 'Search files',
      description:
        'Find files and directories by name, recursively. The pattern is a glob ("*.ts", "src/**/*.test.ts", "*.{md,txt}") ' +
        'or, without glob characters, a case-insensitive part of the name ("config"). Searches under `path`, or the ' +
        `whole first root when it is omitted. Results are bounded; symbolic links are not followed. ${where}`,
      inputSchema: {
        pattern: z.string().describe('Glob or part of a file name.'),
        path: pathArg.optional().describe(`Directory to search under (default: the root). ${where}`),
      },
      annotations: READ_ONLY,
    },
    ({ pattern, path = '.' }, extra) =>
      guard(path, async () =>
        textResult(await searchFiles(sandbox, await sandbox.resolve(path, 'read'), path, pattern, extra.signal)),
      ),
  );
}
