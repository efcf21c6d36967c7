/**
 * One server's tools as the model may be offered them: every tool list the server gives (at each
 * start and each `list_changed`) is vetted by whoever keeps the user's pins, and the tools it holds
 * back stay out of the catalogue, and uncallable, until it lets them go. With no vetting, every
 * tool is offered.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../config/types.js';
import type { PinnedTool } from '../vocabulary/tool-pins.js';

export interface VettedTools {
  /** The server's names of the tools not to offer now. */
  withheld: ReadonlySet<string>;
  /** Settles when the user has answered for them: true lets them be offered. */
  accepted?: Promise<boolean>;
}

/** Decides which of a server's tools are offered (the session's pin gate); it must not throw. */
export interface ToolVetting {
  vet(server: ServerConfig, tools: readonly PinnedTool[]): VettedTools;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * What is pinned of a tool: what the model reads of it (its server's instructions among that) and
 * what approval believes.
 */
export function pinnedView(tool: Tool, instructions?: string): PinnedTool {
  return {
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: tool.inputSchema,
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
    ...(instructions === undefined ? {} : { instructions }),
  };
}

/** What the model is told of a call to a tool held back: why, and that it must do without. */
export function withheldRefusal(server: string, tool: string): string {
  return (
    `Tool "${tool}" of server "${server}" is held back: it is new or has changed since the user accepted ` +
    `this server's tools, and it cannot be used until they accept it. Do without it.`
  );
}

export class HeldTools {
  private withheld = NONE;
  private offeredTools: Tool[] = [];
  /** Increments with every list, so an answer about an older one lets nothing go. */
  private generation = 0;

  /** `onReleased`: tools held back are offered now (the catalogue changes). */
  constructor(
    private readonly config: ServerConfig,
    private readonly vetting: ToolVetting | undefined,
    private readonly onReleased: () => void,
  ) {}

  /** A new list from the server (with the instructions it gave): what of it is offered now, and what waits for the user. */
  set(tools: Tool[], instructions?: string): void {
    const generation = ++this.generation;
    const vetted = this.vetting?.vet(
      this.config,
      tools.map((tool) => pinnedView(tool, instructions)),
    ) ?? {
      withheld: NONE,
    };
    this.offer(tools, vetted.withheld);
    void vetted.accepted?.then((yes) => {
      if (!yes || generation !== this.generation) return;
      this.offer(tools, NONE);
      this.onReleased();
    });
  }

  /** A new array whenever it changes: the host's catalogue is rebuilt only then. */
  offered(): Tool[] {
    return this.offeredTools;
  }

  isWithheld(name: string): boolean {
    return this.withheld.has(name);
  }

  withheldNames(): string[] {
    return [...this.withheld];
  }

  private offer(tools: Tool[], withheld: ReadonlySet<string>): void {
    this.withheld = withheld;
    this.offeredTools = withheld.size === 0 ? tools : tools.filter((tool) => !withheld.has(tool.name));
  }
}
