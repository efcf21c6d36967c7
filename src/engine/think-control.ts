/**
 * Whether a request carries `think`. Policy: only when it is set (by the config, `--think` or
 * `/think`) and the model's `/api/show` lists `thinking`: Ollama refuses `think: true` for any
 * other model (400 "does not support thinking"), so there it is left out and the user is told,
 * once per model. Unset, nothing is sent and Ollama decides (recent ones think by default).
 */
import type { LlmCapabilities, ThinkSetting } from '../vocabulary/types.js';

export interface ThinkDecision {
  think?: ThinkSetting;
  /** Said once per model: the setting asks for reasoning the model cannot do. */
  notice?: string;
}

/** Pure: what one request to `model` carries, given what it can do. */
export function decideThink(
  setting: ThinkSetting | undefined,
  model: string,
  capabilities: LlmCapabilities,
): ThinkDecision {
  if (setting === undefined) return {};
  if (capabilities.thinking) return { think: setting };
  // `off` for a model that cannot think is already so: nothing to send, nothing to say.
  if (setting === false) return {};
  return {
    notice: `${model} cannot think (Ollama lists no "thinking" capability for it): think is ignored for this model.`,
  };
}

export class ThinkControl {
  private readonly noticed = new Set<string>();

  constructor(public setting: ThinkSetting | undefined) {}

  /** The capabilities are asked for only when a setting needs them. */
  async forRequest(model: string, capabilities: () => Promise<LlmCapabilities>): Promise<ThinkDecision> {
    if (this.setting === undefined) return {};
    const decision = decideThink(this.setting, model, await capabilities());
    if (decision.notice === undefined) return decision;
    if (this.noticed.has(model)) return {};
    this.noticed.add(model);
    return decision;
  }
}
