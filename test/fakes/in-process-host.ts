/**
 * The part of a session's host that in-process test hosts share: servers that offer nothing but
 * their tools (no prompts, resources, tasks or log levels) and cannot be reconfigured, watched or
 * turned off. A test host extends it and gives its tools, calls, statuses and approval rule.
 */
import type { PromptInfo, ResourceInfo } from '../../src/vocabulary/offers.js';
import type { ChatMessage, ToolCall, ToolProgress, ToolResult, ToolSpec } from '../../src/vocabulary/types.js';
import type { ServerStatus, SessionHost, TaskInfo } from '../../src/session/session-host.js';
import type { ServerSetChange } from '../../src/mcp/server-set-change.js';

const NOT_HERE = (what: string): Promise<never> => Promise.reject(new Error(`this test host has no ${what}`));

export abstract class InProcessHost implements SessionHost {
  abstract listTools(): ToolSpec[];
  abstract callTool(
    call: ToolCall,
    signal?: AbortSignal,
    onProgress?: (progress: ToolProgress) => void,
  ): Promise<ToolResult>;
  abstract statuses(): ServerStatus[];
  abstract requiresApproval(call: ToolCall): boolean;

  async listPrompts(): Promise<PromptInfo[]> {
    return [];
  }

  getPrompt(server: string, name: string): Promise<ChatMessage[]> {
    return NOT_HERE(`prompt ${server}:${name}`);
  }

  async listResources(): Promise<ResourceInfo[]> {
    return [];
  }

  readResource(server: string, uri: string): Promise<string> {
    return NOT_HERE(`resource @${server}:${uri}`);
  }

  async completePromptArgument(): Promise<string[]> {
    return [];
  }

  watch(): Promise<void> {
    return NOT_HERE('resources to watch');
  }

  unwatch(): Promise<void> {
    return NOT_HERE('resources to watch');
  }

  setLogLevel(): Promise<void> {
    return NOT_HERE('servers that take a log level');
  }

  async listTasks(): Promise<TaskInfo[]> {
    return [];
  }

  setEnabled(): Promise<void> {
    return NOT_HERE('servers to turn on or off');
  }

  turnedOffTools(): Record<string, string[]> {
    return {};
  }

  heldBackTools(): Record<string, string[]> {
    return {};
  }

  reconfigure(): Promise<ServerSetChange> {
    return NOT_HERE('config to reload');
  }
}
