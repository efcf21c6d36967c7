/**
 * Session names: what a user may call a saved conversation, and the names given to those they
 * do not name. Security: a name becomes a file name inside the sessions directory, so it is
 * checked here, once, against everything that could take it elsewhere.
 */
import crypto from 'node:crypto';
import { UsageError } from '../shared/errors.js';

/** The word that means "the session saved most recently", so no session may be called it. */
export const LATEST = 'latest';

/**
 * Letters, digits, `.`, `_` and `-`, starting with a letter or digit: no path separators, no
 * leading dot (hidden and temporary files), no spaces or control characters. 64 characters keep
 * the file name far below every file system's limit.
 */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Why `name` cannot name a session, or undefined when it can. */
export function sessionNameProblem(name: string): string | undefined {
  if (name === LATEST) return `"${LATEST}" means the most recent session; pick another name`;
  // Security: `..` is refused anywhere in the name, not only as a path segment: no name can climb out.
  if (name.includes('..')) return `a session name may not contain ".."`;
  if (!NAME.test(name))
    return 'a session name is 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit';
  return undefined;
}

/** `name` when it is a valid session name; a usage error that says why otherwise. */
export function checkSessionName(name: string): string {
  const problem = sessionNameProblem(name);
  if (problem !== undefined) throw new UsageError(`invalid session name ${JSON.stringify(name)}: ${problem}`);
  return name;
}

const pad = (value: number): string => String(value).padStart(2, '0');

/**
 * A name for a session nobody named: when it began, local time, sortable, and four random hex
 * digits so two chats started in the same second never share a file (`2025-03-01-142501-9f3a`).
 */
export function automaticSessionName(date: Date): string {
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const time = `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
  return `${day}-${time}-${crypto.randomBytes(2).toString('hex')}`;
}
