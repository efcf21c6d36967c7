/**
 * The research MCP server: `search_papers` asks arXiv and saves what it finds in the local paper
 * cache; `extract_info` reads that cache back. Expected failures are `isError` results. No side effects on import.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { ToolExtra } from '../shared/progress.js';
import { errorResult, textResult } from '../shared/tool-results.js';
import { ArxivClient, ArxivError } from './arxiv-client.js';
import { AtomParseError, type Paper, parseAtomFeed } from './atom.js';
import { CacheError, PaperCache, type SaveResult, TopicError } from './paper-cache.js';
import { SearchProgress } from './search-progress.js';
import { validatorOnFirstUse } from '../shared/validator-on-first-use.js';

export interface ResearchServerOptions {
  /** Root of the paper cache; each topic gets a folder inside it. */
  papersDir: string;
  /** The arXiv API query endpoint, e.g. https://export.arxiv.org/api/query. */
  arxivApiUrl: string;
  minIntervalMs?: number;
  jitterMs?: number;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Largest arXiv response read (default 16 MB); a larger one fails the search. */
  maxBodyBytes?: number;
  retryBaseMs?: number;
  log?: (line: string) => void;
}

/** arXiv allows up to 2,000 per page; 50 keeps one answer readable for a small model. */
const MAX_RESULTS_LIMIT = 50;
const DEFAULT_MAX_RESULTS = 5;

// Errors that mean "the tool could not do it", as opposed to bugs.
const EXPECTED_ERRORS = [ArxivError, AtomParseError, CacheError, TopicError];

export function createServer(options: ResearchServerOptions): McpServer {
  const client = new ArxivClient({ ...options, apiUrl: options.arxivApiUrl });
  const cache = new PaperCache(options.papersDir);
  const server = new McpServer(
    { name: 'research', version: '0.1.0' },
    {
      jsonSchemaValidator: validatorOnFirstUse(),
      instructions:
        'Finds scientific papers on arXiv. Call search_papers with a topic first; it returns paper ids. ' +
        'Then call extract_info with one of those ids for the title, authors, summary and PDF link.',
    },
  );
  registerSearchPapers(server, client, cache);
  registerExtractInfo(server, cache);
  return server;
}

function registerSearchPapers(server: McpServer, client: ArxivClient, cache: PaperCache): void {
  server.registerTool(
    'search_papers',
    {
      title: 'Search arXiv papers',
      description:
        'Search arXiv for papers about a topic and save their metadata locally. Returns one line per paper: ' +
        'its arXiv id and title. Use extract_info with an id to get the authors, summary and PDF link.',
      inputSchema: {
        topic: z.string().trim().min(1).max(200).describe('What to search for, e.g. "quantum computing".'),
        // Models often send numbers as strings ("5"); coerce accepts both.
        max_results: z.coerce
          .number()
          .int()
          .min(1)
          .max(MAX_RESULTS_LIMIT)
          .default(DEFAULT_MAX_RESULTS)
          .describe(`How many papers to return (1-${MAX_RESULTS_LIMIT}, default ${DEFAULT_MAX_RESULTS}).`),
      },
      // Not read-only: it writes the local cache. Asking again gives the same cache, so idempotent.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    ({ topic, max_results }, extra) =>
      expected(async () => {
        cache.topicFile(topic); // refuse an unusable topic before spending an arXiv request on it
        // Security: a feed may hold more entries than asked for; only max_results are kept.
        const papers = parseAtomFeed(await searchWithProgress(client, topic, max_results, extra), max_results);
        if (papers.length === 0)
          return textResult(`No papers found on arXiv for "${topic}". Try broader or different words.`);
        return textResult(searchSummary(topic, papers, await cache.save(topic, papers)));
      }),
  );
}

/** The search, telling the client what it waits for when the client asked for progress. */
async function searchWithProgress(
  client: ArxivClient,
  topic: string,
  maxResults: number,
  extra: ToolExtra,
): Promise<string> {
  const progress = SearchProgress.start(extra);
  try {
    return await client.search(topic, maxResults, extra.signal, progress?.onWait);
  } finally {
    await progress?.stop();
  }
}

function registerExtractInfo(server: McpServer, cache: PaperCache): void {
  server.registerTool(
    'extract_info',
    {
      title: 'Paper details',
      description:
        'Show the saved metadata (title, authors, summary, published date, PDF link, categories, and the ' +
        'topics it was found for) of a paper found earlier with search_papers, as JSON.',
      inputSchema: {
        paper_id: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .describe('An arXiv id returned by search_papers, e.g. "2301.01234v2".'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ paper_id }) =>
      expected(async () => {
        const found = await cache.find(paper_id);
        if (!found) return errorResult(`no saved info for paper ${paper_id}; search for it first with search_papers`);
        return textResult(JSON.stringify(found.paper, null, 2));
      }),
  );
}

function searchSummary(topic: string, papers: readonly Paper[], saved: SaveResult): string {
  const lines = papers.map((paper) => {
    const others = saved.alsoUnder.get(paper.id);
    return `${paper.id} — ${paper.title}${others ? ` (also saved under ${quoted(others)}; kept under both)` : ''}`;
  });
  const shared =
    saved.sharedWith.length > 0
      ? ` This folder also holds the topic${saved.sharedWith.length === 1 ? '' : 's'} ${quoted(saved.sharedWith)} ` +
        '(same folder name); each paper keeps every topic it was found for.'
      : '';
  return [
    `Found ${papers.length} paper${papers.length === 1 ? '' : 's'} on arXiv for "${topic}":`,
    ...lines,
    `Saved to ${saved.file} (${saved.added} new, ${saved.total} in this ${shared ? 'folder' : 'topic'}).${shared} ` +
      'Use extract_info with an id for details.',
  ].join('\n');
}

function quoted(topics: readonly string[]): string {
  return topics.map((topic) => `"${topic}"`).join(', ');
}

async function expected(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Error && EXPECTED_ERRORS.some((kind) => error instanceof kind))
      return errorResult(error.message);
    throw error;
  }
}
