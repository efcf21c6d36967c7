/** What ranks a catalogue for one request: the user's words, apart from the ranking that reads them. */

export interface RankingRequest {
  /** The message being answered. */
  message: string;
  /** Earlier messages of the conversation, most recent last. */
  earlier: string[];
  /** Tools this session has used (`server.tool`), most recent first. */
  used?: string[];
}

/** How much of a message ranks the tools: its start says what it is about, and ranking stays cheap. */
const RANKED_CHARS = 4_000;
/** Earlier user messages that count in the ranking, besides the new one. */
const RANKED_EARLIER_MESSAGES = 2;

/** What ranks the tools for a request, from the user's messages: the new one first, then the recent ones. */
export function rankingRequest(userMessages: string[]): RankingRequest {
  const messages = userMessages.slice(-1 - RANKED_EARLIER_MESSAGES).map((text) => text.slice(0, RANKED_CHARS));
  return { message: messages.at(-1) ?? '', earlier: messages.slice(0, -1) };
}
