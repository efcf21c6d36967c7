/**
 * Builds REST paths from tool arguments. Owner and repository names are checked
 * against GitHub's own character set and every path segment is percent-encoded, so
 * an argument can only ever name a resource inside the repository it was given for.
 */
import { GitHubError } from './github-errors.js';

/** GitHub owner and repository names: letters, digits, `-`, `_` and `.`. */
const NAME = /^[A-Za-z0-9_.-]{1,100}$/;

function checkName(kind: string, value: string): string {
  // Security: `.`/`..` or a slash would walk the URL out of /repos/{owner}/{repo} to another endpoint.
  if (!NAME.test(value) || value === '.' || value === '..') {
    throw new GitHubError(`invalid ${kind} "${value}": use the name as it appears in github.com/<owner>/<repo>`);
  }
  return value;
}

/** Splits a repository path into segments; empty, `.` or `/` means the repository root. */
function segments(path: string | undefined): string[] {
  const parts = (path ?? '').split('/').filter((part) => part !== '' && part !== '.');
  for (const part of parts) {
    // Security: `..` would be normalised by URL parsing into a different API endpoint.
    if (part === '..') throw new GitHubError(`invalid path "${path}": ".." is not allowed`);
    if (part.includes('\0')) throw new GitHubError('invalid path: NUL bytes are not allowed');
  }
  return parts;
}

export interface RepoRef {
  owner: string;
  repo: string;
}

export function repoPath({ owner, repo }: RepoRef): string {
  return `/repos/${checkName('owner', owner)}/${checkName('repository', repo)}`;
}

export function contentsPath(ref: RepoRef, path: string | undefined): string {
  const encoded = segments(path).map(encodeURIComponent).join('/');
  return `${repoPath(ref)}/contents/${encoded}`;
}

/** `owner/repo` or `owner/repo/path`, as the 404 message names it. */
export function subjectOf({ owner, repo }: RepoRef, path?: string): string {
  const rest = segments(path).join('/');
  return rest ? `${owner}/${repo}/${rest}` : `${owner}/${repo}`;
}
