/** What a built-in command gives the REPL: lines for the scrollback, and what to do besides. */
import type { NewHistoryItem } from './history.js';

export interface CommandResult {
  items: NewHistoryItem[];
  /** Drawn before `items` but not saved again: a resumed session's own screen. */
  shown?: NewHistoryItem[];
  clear?: boolean;
  exit?: boolean;
  /** A model that is not pulled: the REPL asks whether to pull it. */
  offerPull?: string;
}

export const info = (text: string): NewHistoryItem => ({ type: 'info', text });

/** A listing (help, tools, servers, sessions, tasks): wrapped at the screen's width under its text column. */
export const listing = (text: string): NewHistoryItem => ({ type: 'info', text, listing: true });

/** A command that may fail: its answer as a line, or what went wrong and what to do. */
export async function attempt(run: () => Promise<string>): Promise<NewHistoryItem> {
  try {
    return info(await run());
  } catch (error) {
    const hint = error instanceof Error && 'hint' in error && typeof error.hint === 'string' ? error.hint : undefined;
    return { type: 'error', text: error instanceof Error ? error.message : String(error), hint };
  }
}
