/**
 * What a session needs of the MCP host and of the model client: `McpHost` and the Ollama client,
 * or in-process stand-ins in tests, each the whole of it, so no command asks at run time whether
 * its host can do something.
 */
import type { McpHost } from '../mcp/host.js';
import type { OllamaClient } from '../ollama/client.js';
import type { LlmClient, ToolHost } from '../vocabulary/types.js';

export type { ServerStatus, TaskInfo } from '../mcp/host.js';

export type SessionHost = ToolHost &
  Pick<
    McpHost,
    | 'requiresApproval'
    | 'statuses'
    | 'listPrompts'
    | 'getPrompt'
    | 'listResources'
    | 'readResource'
    | 'completePromptArgument'
    | 'watch'
    | 'unwatch'
    | 'setLogLevel'
    | 'listTasks'
    | 'setEnabled'
    | 'turnedOffTools'
    | 'heldBackTools'
    | 'reconfigure'
  >;

/** What a session needs from the model client: `OllamaClient`, or a scripted one in tests. */
export type SessionLlm = LlmClient &
  Pick<OllamaClient, 'setModel' | 'checkModel' | 'checkAvailable'> &
  Partial<Pick<OllamaClient, 'embed' | 'pull' | 'modelContext'>>;
