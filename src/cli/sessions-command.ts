/**
 * `mcp-chat sessions [--json]`: the saved sessions, newest first. `--json` prints
 * `[{ name, model, createdAt, updatedAt, turns, title }]`. A session file that cannot be read is
 * a warning naming it, and the others are still listed.
 */
import { formatSessionList } from '../present/session-list.js';
import { SessionStore } from '../state/session-store.js';
import { ExitCode } from '../shared/errors.js';
import { jsonForTerminal } from '../shared/terminal-text.js';
import type { Output } from './output.js';
import { printListing } from './print-listing.js';

export function sessionsCommand(output: Output, options: { json?: boolean }): number {
  const { sessions, problems } = SessionStore.open().list();
  for (const problem of problems) output.warn(problem.message);
  if (options.json) output.stdout(jsonForTerminal(sessions));
  else printListing(output, formatSessionList(sessions, new Date()));
  return ExitCode.ok;
}
