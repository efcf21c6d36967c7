/**
 * Everything the REPL drives, without React: the chatbot, the host, the model client,
 * the debug flag and the approval policy ("always" answers last for the session).
 */
import { MCPChatbot } from '../chat/orchestrator.js';
import type { ApprovalPolicy } from '../chat/tool-execution.js';
import type { LlmClient, ToolCall, ToolHost, ToolSpec, TurnEvent } from '../chat/types.js';
import type { DisabledServer } from '../config/types.js';
import type { McpHost, ServerStatus } from '../mcp/host.js';
import type { OllamaClient } from '../ollama-client.js';
import type { Runtime } from '../cli/runtime.js';

export type ApprovalDecision = 'once' | 'always' | 'deny';
export type Approver = (call: ToolCall, signal?: AbortSignal) => Promise<ApprovalDecision>;

/** What the REPL needs from the MCP host: `McpHost`, or an in-process host in tests. */
export type SessionHost = ToolHost & Pick<McpHost, 'requiresApproval' | 'statuses'>;
/** What the REPL needs from the model client: `OllamaClient`, or a scripted one in tests. */
export type SessionLlm = LlmClient & Pick<OllamaClient, 'setModel' | 'checkModel' | 'checkAvailable'>;

const callKey = (call: ToolCall): string => `${call.server}.${call.tool}`;

export class ChatSession {
  readonly chatbot: MCPChatbot;
  private debugOn: boolean;
  private approver: Approver = async () => 'deny';
  private readonly alwaysAllowed = new Set<string>();

  constructor(
    readonly runtime: Runtime,
    private readonly host: SessionHost,
    private readonly llm: SessionLlm,
  ) {
    this.debugOn = runtime.debug;
    const approval: ApprovalPolicy = {
      requiresApproval: (call) => host.requiresApproval(call) && !this.alwaysAllowed.has(callKey(call)),
      approve: async (call, signal) => {
        const decision = await this.approver(call, signal);
        if (decision === 'always') this.alwaysAllowed.add(callKey(call));
        return decision !== 'deny';
      },
    };
    const { config } = runtime;
    this.chatbot = new MCPChatbot({
      llm,
      host,
      approval,
      log: runtime.log,
      toolMode: config.ollama.toolMode,
      maxSteps: 5,
      maxMessages: config.history.maxMessages,
      numCtx: config.ollama.numCtx,
    });
  }

  setApprover(approver: Approver): void {
    this.approver = approver;
  }

  runTurn(text: string, signal: AbortSignal): AsyncGenerator<TurnEvent> {
    return this.chatbot.runTurn(text, signal);
  }

  get model(): string {
    return this.llm.model;
  }

  get debug(): boolean {
    return this.debugOn;
  }

  /** Debug shows raw replies, parsed calls and timings, and logs at debug level while on. */
  toggleDebug(): boolean {
    this.debugOn = !this.debugOn;
    this.runtime.log.level = this.debugOn ? 'debug' : this.runtime.config.logging.level;
    return this.debugOn;
  }

  get logLevel(): string {
    return this.runtime.log.level;
  }

  tools(): ToolSpec[] {
    return this.host.listTools();
  }

  serverStatuses(): ServerStatus[] {
    return this.host.statuses();
  }

  disabledServers(): DisabledServer[] {
    return this.runtime.config.disabled;
  }

  clearConversation(): void {
    this.chatbot.conversation.clear();
  }

  /** Switches only to a model Ollama has, so a typo never breaks the next turn. */
  async switchModel(name: string): Promise<void> {
    const previous = this.llm.model;
    this.llm.setModel(name);
    try {
      await this.llm.checkModel();
    } catch (error) {
      this.llm.setModel(previous);
      throw error;
    }
    this.chatbot.resetModelState();
  }

  /** Checks Ollama once at start, so a problem is explained before the first message. */
  async checkOllama(): Promise<void> {
    await this.llm.checkAvailable();
    await this.llm.checkModel();
  }
}
