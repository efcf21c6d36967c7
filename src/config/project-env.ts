/**
 * Which variables a working directory's `.env` may set. Trust in a `.env` is trust in its bytes:
 * a variable that picks another file, moves where state is kept or changes what a program loads
 * would reach past those bytes, so it is refused, with one line saying which and what to do.
 */

/** A variable a project's `.env` set and mcp-chat did not use, and why. */
export interface RefusedVariable {
  name: string;
  /** Why, for a person: what the variable would have done. */
  why: string;
  /** What to do instead. */
  instead: string;
}

const IN_YOUR_SHELL = 'set it in your shell';

// Security: each rule names what a project could otherwise do without the trust question showing it.
const RULES: ReadonlyArray<{ matches: (name: string) => boolean; why: string; instead: string }> = [
  {
    // The file it names was never shown or hashed, and its later edits would run unasked.
    matches: (name) => name === 'MCP_CHAT_CONFIG',
    why: "a project's .env may not choose the config (that file was never shown to you or trusted)",
    instead: `pass --config or ${IN_YOUR_SHELL}`,
  },
  {
    // The user's config, the trust store's neighbours (sessions, OAuth tokens, logs) and caches.
    matches: (name) => name === 'MCP_CHAT_LOG_FILE' || name === 'HOME' || name.startsWith('XDG_'),
    why: "a project's .env may not move where mcp-chat finds your config or keeps its state",
    instead: IN_YOUR_SHELL,
  },
  {
    // Which programs are found and what they load before their own code (the opener, a child's shell).
    matches: (name) =>
      ['PATH', 'NODE_OPTIONS', 'NODE_PATH', 'BROWSER', 'SHELL'].includes(name) ||
      name.startsWith('LD_') ||
      name.startsWith('DYLD_'),
    why: "a project's .env may not change which programs run or what they load",
    instead: `${IN_YOUR_SHELL}, or give it to one server in its "env"`,
  },
  {
    // mcp-chat's own settings that only choose the model and how much it logs are fine; any other,
    // today's or a future one, is refused until someone decides it is harmless.
    matches: (name) => name.startsWith('MCP_CHAT_') && !['MCP_CHAT_MODEL', 'MCP_CHAT_LOG_LEVEL'].includes(name),
    why: "a project's .env may set only MCP_CHAT_MODEL and MCP_CHAT_LOG_LEVEL of mcp-chat's own variables",
    instead: IN_YOUR_SHELL,
  },
];

/** Why a project's `.env` may not set `name`, or undefined when it may. */
export function refusedFromProject(name: string): RefusedVariable | undefined {
  const rule = RULES.find((candidate) => candidate.matches(name));
  return rule && { name, why: rule.why, instead: rule.instead };
}

/** The one line a person reads about a refused variable: which, why, what to do. */
export function describeRefused(source: string, refused: RefusedVariable): string {
  return `${source}: ${refused.name} is not used: ${refused.why}; ${refused.instead}`;
}
