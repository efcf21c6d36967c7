/**
 * What servers offer besides tools, as the rest of the program sees it: prompts (a turn's input
 * the server writes) and resources (text the user attaches with `@server:uri`). `mcp/` fills them.
 */

export interface PromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

export interface PromptInfo {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments: PromptArgument[];
}

/** A prompt run without some of its required arguments: the REPL asks for them. */
export interface MissingArguments {
  /** `server:name`. */
  prompt: string;
  arguments: PromptArgument[];
}

export interface ResourceInfo {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface ResourceTemplateInfo {
  server: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** How a prompt is run: `/server:name key=<key> [optional=…]`. */
export function promptUsage(prompt: PromptInfo): string {
  const args = prompt.arguments.map((arg) => (arg.required ? `${arg.name}=<${arg.name}>` : `[${arg.name}=…]`));
  return [`/${prompt.server}:${prompt.name}`, ...args].join(' ');
}
