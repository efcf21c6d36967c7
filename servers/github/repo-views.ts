/**
 * Compact, model-sized views of GitHub REST responses. Responses are validated with
 * zod at this boundary (only the fields we show); file content is decoded from
 * base64, binary content is described rather than dumped, and long text is capped.
 */
import * as z from 'zod';
import { GitHubError } from './github-errors.js';

/** How much of the start of a file is inspected for NUL bytes (the usual binary heuristic). */
const BINARY_SNIFF_BYTES = 8 * 1024;

const RepositorySchema = z.object({
  full_name: z.string(),
  description: z.string().nullish(),
  stargazers_count: z.number(),
  forks_count: z.number(),
  open_issues_count: z.number().nullish(),
  default_branch: z.string().nullish(),
  language: z.string().nullish(),
  topics: z.array(z.string()).nullish(),
  license: z.object({ spdx_id: z.string().nullish(), name: z.string().nullish() }).nullish(),
  html_url: z.string(),
  archived: z.boolean().nullish(),
  fork: z.boolean().nullish(),
});

const EntrySchema = z.object({
  type: z.string(),
  name: z.string(),
  path: z.string(),
  size: z.number().nullish(),
});

const FileSchema = EntrySchema.extend({
  content: z.string().nullish(),
  encoding: z.string().nullish(),
});

const SearchSchema = z.object({
  total_count: z.number(),
  items: z.array(RepositorySchema),
});

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new GitHubError(`unexpected response from GitHub for ${what}`);
  return result.data;
}

function licenseOf(license: z.infer<typeof RepositorySchema>['license']): string {
  if (!license) return '(none)';
  return license.spdx_id && license.spdx_id !== 'NOASSERTION' ? license.spdx_id : (license.name ?? '(unknown)');
}

export function repositorySummary(body: unknown): string {
  const repo = parse(RepositorySchema, body, 'a repository');
  const flags = [repo.archived ? 'archived' : '', repo.fork ? 'fork' : ''].filter(Boolean).join(', ');
  return [
    `${repo.full_name}${flags ? ` (${flags})` : ''}`,
    `Description: ${repo.description || '(none)'}`,
    `Stars: ${repo.stargazers_count} · Forks: ${repo.forks_count}` +
      (repo.open_issues_count == null ? '' : ` · Open issues: ${repo.open_issues_count}`),
    `Default branch: ${repo.default_branch ?? '(unknown)'}`,
    `Language: ${repo.language ?? '(not detected)'}`,
    `Topics: ${repo.topics?.length ? repo.topics.join(', ') : '(none)'}`,
    `License: ${licenseOf(repo.license)}`,
    `URL: ${repo.html_url}`,
  ].join('\n');
}

/** A directory listing, directories first; a single object means the path is a file. */
export function directoryListing(body: unknown, subject: string): string {
  if (!Array.isArray(body)) {
    const entry = parse(EntrySchema, body, subject);
    return `${subject} is a ${entry.type}, not a directory (${entry.size ?? 0} bytes); use get_file_content to read it.`;
  }
  const entries = parse(z.array(EntrySchema), body, subject);
  if (entries.length === 0) return `${subject} is empty.`;
  const sorted = [...entries].sort((a, b) =>
    a.type === b.type
      ? a.name.localeCompare(b.name)
      : a.type === 'dir'
        ? -1
        : b.type === 'dir'
          ? 1
          : a.type.localeCompare(b.type),
  );
  const lines = sorted.map((entry) =>
    entry.type === 'file'
      ? `file  ${entry.name} (${entry.size ?? 0} bytes)`
      : `${entry.type.padEnd(4)}  ${entry.name}${entry.type === 'dir' ? '/' : ''}`,
  );
  return [`${subject}: ${entries.length} entries`, ...lines].join('\n');
}

/** Decodes a contents-API file: text (capped, saying so) or a description of binary content. */
export function fileContent(body: unknown, subject: string, maxBytes: number): string {
  if (Array.isArray(body)) return `${subject} is a directory; use list_files to see its entries.`;
  const file = parse(FileSchema, body, subject);
  if (file.type !== 'file') return `${subject} is a ${file.type}, not a file; its content is not shown.`;
  const size = file.size ?? 0;
  if (file.encoding !== 'base64' || file.content == null) {
    // The contents API leaves `content` empty (encoding "none") for files over 1 MB.
    return `${subject} is too large for the GitHub contents API (${size} bytes); its content is not shown.`;
  }
  const bytes = Buffer.from(file.content, 'base64');
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    return `${subject} is a binary file (${bytes.length} bytes); its content is not shown.`;
  }
  const shown = bytes.subarray(0, maxBytes);
  // `stream: true` holds back a multi-byte character cut at the cap instead of emitting U+FFFD.
  const text = new TextDecoder('utf-8').decode(shown, { stream: shown.length < bytes.length });
  if (shown.length === bytes.length) return text;
  return `${text}\n\n[truncated: showed the first ${shown.length} of ${bytes.length} bytes of ${subject}]`;
}

export function searchResults(body: unknown, query: string, limit: number): string {
  const result = parse(SearchSchema, body, `the search "${query}"`);
  if (result.items.length === 0) return `No repositories match "${query}".`;
  const lines = result.items.slice(0, limit).map((repo, index) => {
    const language = repo.language ? ` [${repo.language}]` : '';
    const description = repo.description ? ` — ${repo.description.slice(0, 160)}` : '';
    return `${index + 1}. ${repo.full_name} ★${repo.stargazers_count}${language}${description}\n   ${repo.html_url}`;
  });
  return [`${result.total_count} repositories match "${query}"; top ${lines.length}:`, ...lines].join('\n');
}
