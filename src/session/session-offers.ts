/**
 * What the running servers offer besides tools, as the session's front ends use it: prompts run as
 * `/server:prompt`, resources attached as `@server:uri`, Tab's suggestions. The last look is kept,
 * for completion, which cannot wait; a change the servers announce brings a new look.
 */
import type { PromptInfo, ResourceInfo } from '../vocabulary/offers.js';
import type { SessionHost } from './session-host.js';
import { findPrompt, type ResolvedInput, resolveTurnInput } from './turn-input.js';

export interface KnownOffers {
  prompts: PromptInfo[];
  resources: ResourceInfo[];
}

export class SessionOffers {
  private known: KnownOffers = { prompts: [], resources: [] };
  /** The servers that were up when `known` was last asked for. */
  private offersFrom: string | undefined;
  /** Counts listings, so only the latest one's answer is kept. */
  private looks = 0;

  constructor(
    private readonly host: SessionHost,
    /** The configured servers' names, as a line may name them. */
    private readonly servers: () => string[],
  ) {}

  /** A typed line as a turn's input: a prompt's messages or attached resources first, when it asks for them. */
  resolve(text: string, given?: Record<string, string>): Promise<ResolvedInput> {
    return resolveTurnInput(text, this.host, this.servers(), given);
  }

  /** What the running servers offered at the last look. */
  get current(): KnownOffers {
    return this.known;
  }

  /** The next look asks again, whatever is up (a server announced a change). */
  forget(): void {
    this.offersFrom = undefined;
  }

  /** The prompts of the running servers (for `help`); remembered for `isPromptName` and completion. */
  async prompts(): Promise<PromptInfo[]> {
    const prompts = await this.host.listPrompts();
    this.known = { ...this.known, prompts };
    return prompts;
  }

  /** Asks the running servers again for their prompts and resources when the servers that are up have changed. */
  async refresh(): Promise<void> {
    const ready = this.host
      .statuses()
      .filter((status) => status.state === 'ready')
      .map((status) => status.name)
      .join(' ');
    if (ready === this.offersFrom) return;
    this.offersFrom = ready;
    const look = ++this.looks;
    const [resources, prompts] = await Promise.all([this.host.listResources(), this.host.listPrompts()]);
    // A later look (a change announced meanwhile) may have finished first: the older answer must not win.
    if (look === this.looks) this.known = { prompts, resources };
  }

  /**
   * Tab on a prompt argument: the values the prompt's server suggests for what is typed so far,
   * given the arguments typed before it. `prompt` as after the slash (`server:name` or a unique name).
   */
  async completeArgument(
    prompt: string,
    argument: { name: string; value: string },
    typed: Record<string, string>,
  ): Promise<string[]> {
    const found = findPrompt(prompt, this.known.prompts);
    if (!found || Array.isArray(found)) return [];
    return this.host.completePromptArgument(found.server, found.name, argument, typed);
  }

  /** Whether `/word` runs a prompt: `server:name`, or a name a running server offers (as of the last look). */
  isPromptName(word: string): boolean {
    return word.includes(':') || this.known.prompts.some((prompt) => prompt.name === word);
  }
}
