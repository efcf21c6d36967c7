/**
 * A small GitHub REST client over fetch: versioned headers, per-call credentials,
 * ETag revalidation through a bounded in-memory cache, and failures turned into
 * sentences a model can act on (`GitHubError`), never raw HTTP noise.
 */
import { createHash } from 'node:crypto';
import { describeFailure, GitHubError, rateLimitWait } from './github-errors.js';

export { GitHubError } from './github-errors.js';

export const DEFAULT_GITHUB_API_URL = 'https://api.github.com';
/** GitHub pins REST behaviour to a dated version; this is the one the tools were written against. */
const API_VERSION = '2022-11-28';
/** Entries kept for conditional requests: enough for a session's worth of browsing, bounded in memory. */
const CACHE_ENTRIES = 200;

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface GitHubClientOptions {
  /** REST API base, e.g. `https://api.github.com` or a GitHub Enterprise `/api/v3` URL. */
  baseUrl?: string;
  /** The server's own token (`GITHUB_TOKEN`), used when a call brings no credentials of its own. */
  token?: string;
  userAgent?: string;
  fetch?: FetchLike;
  /** Waits before the single retry of a briefly rate-limited request; replaceable in tests. */
  sleep?: (ms: number) => Promise<void>;
}

export interface GetOptions {
  query?: Record<string, string | number | undefined>;
  /** An incoming `Authorization` header value to use instead of the server's token. */
  authorization?: string;
  /** What the request is about, for a 404 message: `owner/repo` or `owner/repo/path`. */
  subject: string;
}

interface CacheEntry {
  etag: string;
  body: unknown;
}

export class GitHubClient {
  readonly baseUrl: string;
  private readonly token: string | undefined;
  private readonly userAgent: string;
  private readonly fetch: FetchLike;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly cache = new Map<string, CacheEntry>();

  constructor(options: GitHubClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_GITHUB_API_URL).replace(/\/+$/, '');
    this.token = options.token || undefined;
    this.userAgent = options.userAgent ?? 'mcp-chat-github-server';
    this.fetch = options.fetch ?? ((url, init) => fetch(url, init));
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** GETs a JSON resource; throws `GitHubError` with a model-readable message on any failure. */
  async get(path: string, options: GetOptions): Promise<unknown> {
    const url = this.buildUrl(path, options.query);
    const authorization = options.authorization ?? (this.token ? `Bearer ${this.token}` : undefined);
    // Security: cached bodies are keyed by the credentials that fetched them, so one caller never sees another's private data.
    const key = `${cacheIdentity(authorization)} ${url}`;
    const cached = this.cache.get(key);
    let response = await this.send(url, authorization, cached?.etag);
    const wait = rateLimitWait(response);
    if (wait !== undefined) {
      await response.body?.cancel();
      await this.sleep(wait);
      response = await this.send(url, authorization, cached?.etag);
    }
    if (response.status === 304 && cached) {
      this.remember(key, cached);
      return cached.body;
    }
    if (!response.ok) throw await describeFailure(response, options.subject);
    const body: unknown = await response.json();
    const etag = response.headers.get('etag');
    if (etag) this.remember(key, { etag, body });
    return body;
  }

  private buildUrl(path: string, query: GetOptions['query']): string {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  private async send(url: string, authorization: string | undefined, etag: string | undefined): Promise<Response> {
    const headers: Record<string, string> = {
      Accept: 'application/vnd.github+json',
      'X-GitHub-Api-Version': API_VERSION,
      'User-Agent': this.userAgent,
    };
    if (authorization) headers.Authorization = authorization;
    if (etag) headers['If-None-Match'] = etag;
    try {
      return await this.fetch(url, { method: 'GET', headers });
    } catch (error) {
      const reason = error instanceof Error ? (causeCode(error) ?? error.message) : String(error);
      throw new GitHubError(`cannot reach the GitHub API at ${this.baseUrl}: ${reason}`);
    }
  }

  /** Inserts or refreshes an entry as most recently used, evicting the oldest beyond the bound. */
  private remember(key: string, entry: CacheEntry): void {
    this.cache.delete(key);
    this.cache.set(key, entry);
    if (this.cache.size > CACHE_ENTRIES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }
}

function cacheIdentity(authorization: string | undefined): string {
  if (!authorization) return 'anonymous';
  return createHash('sha256').update(authorization).digest('hex').slice(0, 16);
}

function causeCode(error: Error): string | undefined {
  const cause: unknown = error.cause;
  if (cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string') return cause.code;
  return undefined;
}
