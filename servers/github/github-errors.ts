/**
 * How GitHub REST failures read to a model: one sentence that says what happened and
 * what to do (check the token, wait for the rate limit, fix the path), never a JSON dump.
 */

/** Longest wait honoured before the single retry: longer limits are reported, not slept through. */
export const MAX_RETRY_AFTER_MS = 5_000;
/** GitHub's own message is quoted at most this long. */
const MAX_MESSAGE_CHARS = 200;

export class GitHubError extends Error {
  override readonly name = 'GitHubError';
}

function isRateLimitStatus(status: number): boolean {
  return status === 403 || status === 429;
}

function retryAfterMs(response: Response): number | undefined {
  const header = response.headers.get('retry-after');
  if (header === null) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** Milliseconds to wait before retrying once, when GitHub asks for a short pause; otherwise undefined. */
export function rateLimitWait(response: Response): number | undefined {
  if (!isRateLimitStatus(response.status)) return undefined;
  const wait = retryAfterMs(response);
  return wait !== undefined && wait <= MAX_RETRY_AFTER_MS ? wait : undefined;
}

function resetTime(response: Response): string {
  const reset = Number(response.headers.get('x-ratelimit-reset'));
  if (!Number.isFinite(reset) || reset <= 0) return 'an unknown time';
  return new Date(reset * 1000).toISOString();
}

async function githubMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
      return parsed.message.slice(0, MAX_MESSAGE_CHARS);
    }
  } catch {
    // Not JSON (a proxy's error page, say): quote the start of it instead.
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, MAX_MESSAGE_CHARS) || response.statusText;
}

/** Turns a non-OK response into the error the tool reports; `subject` names what was asked for. */
export async function describeFailure(response: Response, subject: string): Promise<GitHubError> {
  const { status } = response;
  if (status === 401) {
    await response.body?.cancel();
    return new GitHubError('GitHub rejected the token (401): check GITHUB_TOKEN');
  }
  if (isRateLimitStatus(status) && response.headers.get('x-ratelimit-remaining') === '0') {
    await response.body?.cancel();
    return new GitHubError(`GitHub rate limit reached; resets at ${resetTime(response)}`);
  }
  const retryAfter = retryAfterMs(response);
  if (isRateLimitStatus(status) && retryAfter !== undefined) {
    await response.body?.cancel();
    return new GitHubError(`GitHub secondary rate limit reached; retry after ${Math.ceil(retryAfter / 1000)} s`);
  }
  if (status === 404) {
    await response.body?.cancel();
    return new GitHubError(`not found: ${subject} (or the token cannot see it)`);
  }
  const message = await githubMessage(response);
  if (status === 403) {
    return new GitHubError(`GitHub refused access (403): ${message}; the token may lack the permission this needs`);
  }
  return new GitHubError(`GitHub API error ${status}: ${message}`);
}
