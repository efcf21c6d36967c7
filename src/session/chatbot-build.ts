/** The session's `MCPChatbot`, wired to its host, model client, questions and context from the runtime's settings. */
import type { ApprovalRule } from '../engine/approval.js';
import type { ContextWindow } from '../engine/context-window.js';
import { MCPChatbot } from '../engine/orchestrator.js';
import type { QuestionBook } from '../engine/question-book.js';
import type { RoomMaker } from '../engine/request-window.js';
import type { JsonSchema } from '../vocabulary/types.js';
import { DEFAULT_MAX_STEPS } from './limits.js';
import type { Runtime } from './runtime.js';
import type { SessionHost, SessionLlm } from './session-host.js';
import { toolSelection } from './tool-selection.js';

/** What the session decides for its chatbot beyond the config. */
export interface ChatbotParts {
  approvalRule?: ApprovalRule;
  maxSteps?: number;
  answerFormat?: JsonSchema;
  roomMaker: RoomMaker;
  context: ContextWindow;
}

export function buildChatbot(
  runtime: Runtime,
  host: SessionHost,
  llm: SessionLlm,
  questions: QuestionBook,
  parts: ChatbotParts,
): MCPChatbot {
  const { config, log } = runtime;
  return new MCPChatbot({
    llm,
    host,
    log,
    questions,
    approvalRule: parts.approvalRule ?? ((call) => host.requiresApproval(call)),
    toolMode: config.ollama.toolMode,
    maxSteps: parts.maxSteps ?? DEFAULT_MAX_STEPS,
    maxParallel: config.tools.maxParallel,
    configuredServers: [...config.servers, ...config.disabled].map((server) => server.name),
    ...(config.history.maxMessages === undefined ? {} : { maxMessages: config.history.maxMessages }),
    context: parts.context,
    toolSelection: toolSelection(runtime, llm, parts.context),
    ...(config.ollama.think === undefined ? {} : { think: config.ollama.think }),
    ...(parts.answerFormat ? { answerFormat: parts.answerFormat } : {}),
    roomMaker: parts.roomMaker,
  });
}
