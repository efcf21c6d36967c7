/**
 * `/export <file>`: the session as last saved, written where the user says. `.json` is the
 * session file itself (every message the model is sent again, and the screen); `.md` is the
 * conversation as the screen showed it, for people. An existing file is never overwritten.
 * Security: what a tool or the model wrote is in the file, and people `cat` it; neither form
 * carries an escape sequence or a control character a terminal would obey.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { ExitCode, McpChatError, UsageError, assertNever } from '../shared/errors.js';
import { jsonForTerminal, sanitizeForTerminal } from '../shared/terminal-text.js';
import type { SavedItem, SavedSession } from './session-file.js';
import { counted } from '../shared/plural.js';

/** A fence longer than any run of backticks in `text`, so what a tool returned cannot close it. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

function itemMarkdown(item: SavedItem): string {
  switch (item.type) {
    case 'user':
      return `## You\n\n${item.text}`;
    case 'assistant':
      return `## Assistant\n\n${item.text}`;
    case 'tool': {
      const mark = item.result.isError ? '✗' : '✓';
      const call = `${mark} ${item.call.server}.${item.call.tool}(${JSON.stringify(item.call.arguments)}) ${item.result.durationMs} ms`;
      return `${call}\n\n${fenced(item.result.forModel)}`;
    }
    case 'info':
      return `> ${item.text.split('\n').join('\n> ')}`;
    case 'error':
      return `> ✗ ${item.text}${item.hint ? `\n> ${item.hint}` : ''}`;
    case 'debug':
      return `> [debug] ${item.text.split('\n').join('\n> ')}`;
    default:
      return assertNever(item);
  }
}

export function sessionMarkdown(saved: SavedSession): string {
  const head = [
    `# mcp-chat session ${saved.name}`,
    '',
    `Model ${saved.model} · ${counted(saved.turns, 'turn')} · begun ${saved.createdAt} · saved ${saved.updatedAt}`,
  ];
  // The text is made inert as the screen makes it: escape sequences and controls go, bidi controls show.
  return sanitizeForTerminal(`${[...head, ...saved.screen.map(itemMarkdown)].join('\n\n')}\n`);
}

/** Writes the export; returns the absolute path written. */
export function exportSession(saved: SavedSession, file: string, cwd: string): string {
  const target = path.resolve(cwd, file);
  const extension = path.extname(target).toLowerCase();
  if (extension !== '.md' && extension !== '.json')
    throw new UsageError(`export to a .md or .json file, not ${JSON.stringify(file)}`);
  if (fs.existsSync(target))
    throw new McpChatError(`${target} exists already`, ExitCode.runtime, 'Pick another name, or remove it first.');
  // JSON escapes for what a terminal would obey: the file still parses back to the exact session.
  writeFileAtomic(target, extension === '.md' ? sessionMarkdown(saved) : `${jsonForTerminal(saved)}\n`);
  return target;
}
