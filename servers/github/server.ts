/**
 * The GitHub MCP server: four read-only tools over the GitHub REST API. Credentials
 * come from the caller's `Authorization` header when served over HTTP, else the
 * client's own token if it has one (main.ts gives it one over stdio, and over HTTP only
 * with --use-own-token); every failure is an `isError` result. No side effects on import.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, RequestInfo } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { errorResult, textResult } from '../shared/tool-results.js';
import { GitHubClient, GitHubError } from './github-api.js';
import { contentsPath, repoPath, subjectOf } from './github-paths.js';
import { directoryListing, fileContent, repositorySummary, searchResults } from './repo-views.js';
import { validatorOnFirstUse } from '../shared/validator-on-first-use.js';

export interface GitHubServerOptions {
  /** Shared between sessions so the ETag cache serves every client of one process. */
  client: GitHubClient;
  /** Bytes of a file get_file_content returns at most; the rest is reported as truncated. */
  maxFileBytes?: number;
}

/** Default read budget: most source files fit, and a local model's context survives it. */
export const DEFAULT_MAX_FILE_BYTES = 256 * 1024;
/** Search results shown by default and at most: enough to choose from, small enough to read. */
const DEFAULT_SEARCH_RESULTS = 5;
const MAX_SEARCH_RESULTS = 20;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;

const owner = z.string().min(1).describe('Repository owner (user or organisation), e.g. "octocat".');
const repo = z.string().min(1).describe('Repository name, e.g. "hello-world".');
const ref = z.string().min(1).optional().describe('Branch, tag or commit SHA (default: the default branch).');

/** The caller's own `Authorization` header, when the request came over HTTP with one. */
function incomingAuthorization(requestInfo: RequestInfo | undefined): string | undefined {
  const value = requestInfo?.headers.authorization;
  const header = Array.isArray(value) ? value[0] : value;
  return header?.trim() ? header.trim() : undefined;
}

/** Runs a tool body; expected GitHub failures become error results the model can read. */
async function guarded(run: () => Promise<string>): Promise<CallToolResult> {
  try {
    return textResult(await run());
  } catch (error) {
    if (error instanceof GitHubError) return errorResult(error.message);
    throw error;
  }
}

interface ContentsArgs {
  owner: string;
  repo: string;
  path?: string;
  ref?: string;
}

/** GET /repos/{owner}/{repo}/contents/{path}: the one request behind list_files and get_file_content. */
async function getContents(
  client: GitHubClient,
  args: ContentsArgs,
  requestInfo: RequestInfo | undefined,
): Promise<{ body: unknown; subject: string }> {
  const subject = subjectOf(args, args.path);
  const body = await client.get(contentsPath(args, args.path), {
    subject,
    query: { ref: args.ref },
    authorization: incomingAuthorization(requestInfo),
  });
  return { body, subject };
}

export function createServer(options: GitHubServerOptions): McpServer {
  const server = new McpServer(
    { name: 'github', version: '0.1.0' },
    {
      jsonSchemaValidator: validatorOnFirstUse(),
      instructions:
        'Reads public (or token-visible) GitHub repositories: metadata, directory listings, file contents and search.',
    },
  );
  registerRepositoryTools(server, options.client);
  registerContentTools(server, options.client, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
  return server;
}

function registerRepositoryTools(server: McpServer, client: GitHubClient): void {
  server.registerTool(
    'get_repository',
    {
      title: 'Get repository',
      description:
        'Summarise a GitHub repository: description, stars, forks, default branch, language, topics, license and URL.',
      inputSchema: { owner, repo },
      annotations: READ_ONLY,
    },
    (args, extra) =>
      guarded(async () => {
        const body = await client.get(repoPath(args), {
          subject: subjectOf(args),
          authorization: incomingAuthorization(extra.requestInfo),
        });
        return repositorySummary(body);
      }),
  );
  server.registerTool(
    'search_repositories',
    {
      title: 'Search repositories',
      description:
        'Search GitHub repositories (GitHub search syntax, e.g. "mcp language:typescript stars:>100"); returns the top results by relevance.',
      inputSchema: {
        query: z.string().min(1).describe('Search query in GitHub search syntax.'),
        max_results: z
          .number()
          .int()
          .min(1)
          .max(MAX_SEARCH_RESULTS)
          .optional()
          .describe(`How many results to show (default ${DEFAULT_SEARCH_RESULTS}).`),
      },
      annotations: READ_ONLY,
    },
    ({ query, max_results }, extra) =>
      guarded(async () => {
        const limit = max_results ?? DEFAULT_SEARCH_RESULTS;
        const body = await client.get('/search/repositories', {
          subject: `search "${query}"`,
          query: { q: query, per_page: limit },
          authorization: incomingAuthorization(extra.requestInfo),
        });
        return searchResults(body, query, limit);
      }),
  );
}

function registerContentTools(server: McpServer, client: GitHubClient, maxFileBytes: number): void {
  server.registerTool(
    'list_files',
    {
      title: 'List files',
      description:
        'List a directory of a GitHub repository (directories first, files with their size). Omit `path` for the root.',
      inputSchema: {
        owner,
        repo,
        path: z.string().optional().describe('Directory inside the repository, e.g. "src" (default: the root).'),
        ref,
      },
      annotations: READ_ONLY,
    },
    (args, extra) =>
      guarded(() =>
        getContents(client, args, extra.requestInfo).then(({ body, subject }) => directoryListing(body, subject)),
      ),
  );
  server.registerTool(
    'get_file_content',
    {
      title: 'Get file content',
      description: `Read a text file from a GitHub repository (at most ${maxFileBytes} bytes; longer files are truncated and say so; binary files are described, not shown).`,
      inputSchema: {
        owner,
        repo,
        path: z.string().min(1).describe('File path inside the repository, e.g. "README.md".'),
        ref,
      },
      annotations: READ_ONLY,
    },
    (args, extra) =>
      guarded(() =>
        getContents(client, args, extra.requestInfo).then(({ body, subject }) =>
          fileContent(body, subject, maxFileBytes),
        ),
      ),
  );
}
