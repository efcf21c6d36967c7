/**
 * A server's prompt messages as the person who ran the prompt sees them, before the model is sent
 * them: each labelled with its role and its server, its text whole, every control character shown
 * as an escape (`showControls`), and long runs of blank lines counted, so no part of what the model
 * is given can hide from the screen. An `assistant` message says that the model takes it as its own.
 */
import type { ChatMessage } from '../vocabulary/types.js';
import { showControls } from '../shared/terminal-text.js';
import { counted } from '../shared/plural.js';

/** A message's lines are set off from the labels, so a line inside one cannot pass for a label. */
const GUTTER = '  │ ';
/** More blank lines in a row are one line that counts them: blank space must not push words out of sight. */
const MAX_BLANK_RUN = 2;

function label(message: ChatMessage, server: string): string {
  return message.role === 'assistant'
    ? `${message.role} (from ${server}; the model takes it as its own words):`
    : `${message.role} (from ${server}):`;
}

function bodyLines(content: string): string[] {
  if (content.trim() === '') return [`(empty${content === '' ? '' : `: ${content.length} blank characters`})`];
  const shown: string[] = [];
  let blank = 0;
  const endBlankRun = (): void => {
    if (blank > MAX_BLANK_RUN) shown.push(`[${blank} blank lines]`);
    else for (let line = 0; line < blank; line++) shown.push('');
    blank = 0;
  };
  for (const line of showControls(content).split('\n')) {
    if (line.trim() === '') blank += 1;
    else {
      endBlankRun();
      shown.push(line);
    }
  }
  endBlankRun();
  return shown;
}

export function promptMessagesView(server: string, prompt: string, messages: readonly ChatMessage[]): string {
  const count = counted(messages.length, 'message');
  const lines = [`prompt ${server}:${showControls(prompt)}: ${count}, given to the model as this turn's input:`];
  for (const message of messages) {
    lines.push(`  ${label(message, server)}`, ...bodyLines(message.content).map((line) => `${GUTTER}${line}`));
  }
  return lines.join('\n');
}
