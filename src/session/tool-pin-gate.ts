/**
 * Which of a server's tools the model is offered, against the user's pins (state/tool-pin-store.ts):
 * a tool new or changed since the user accepted the server's tools waits. At the REPL the user is
 * asked, with what changed, and a yes is remembered; a script refuses them with one line on stderr
 * per server, unless `--accept-tool-changes` offers them for the run (remembered by nothing).
 */
import type { ToolVetting, VettedTools } from '../mcp/held-tools.js';
import type { ServerConfig } from '../config/types.js';
import type { QuestionBook } from '../engine/question-book.js';
import { canonicalJson } from '../shared/canonical-json.js';
import { errorMessage } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import type { ToolPinStore } from '../state/tool-pin-store.js';
import { sha256 } from '../state/trust-store.js';
import {
  changedToolCount,
  changedToolName,
  summariseChanges,
  type PinnedTool,
  type ServerToolChanges,
} from '../vocabulary/tool-pins.js';

export interface PinGateOptions {
  store: ToolPinStore;
  /** Where the user is asked (the REPL); none: no one is (a script), and what changed is refused. */
  questions?: QuestionBook;
  /** `--accept-tool-changes`: what changed is offered for this run, and not remembered. */
  acceptForRun: boolean;
  /** One line for the user: stderr in a script, a notice in the REPL. */
  notify: (line: string) => void;
  log: Logger;
}

/** A server's tools that wait for the user, with what is needed to pin them once accepted. */
interface Waiting {
  config: ServerConfig;
  tools: readonly PinnedTool[];
  changes: ServerToolChanges;
  /** The same changes have the same key: a restart's list is not said or asked about again. */
  key: string;
}

interface Asking {
  key: string;
  stop: AbortController;
  answer: Promise<boolean>;
}

const NOTHING_HELD: VettedTools = { withheld: new Set() };

export class ToolPinGate implements ToolVetting {
  private readonly waiting = new Map<string, Waiting>();
  private readonly asking = new Map<string, Asking>();
  /** Lines said this run, by key: each once. */
  private readonly said = new Set<string>();
  /** Changes the user said no to at the REPL: held back for the session, not asked again. */
  private readonly declined = new Set<string>();

  constructor(private readonly options: PinGateOptions) {}

  vet(config: ServerConfig, tools: readonly PinnedTool[]): VettedTools {
    const changes = this.changesOf(config, tools);
    if (!changes) {
      this.waiting.delete(config.name);
      // The server went back to what the user accepted: the question is moot.
      this.asking.get(config.name)?.stop.abort();
      return NOTHING_HELD;
    }
    const waiting = { config, tools, changes, key: sha256(canonicalJson([config.name, changes])) };
    this.waiting.set(config.name, waiting);
    if (this.options.acceptForRun) {
      this.sayOnce(waiting.key, offeredForRun(changes));
      return NOTHING_HELD;
    }
    const withheld = new Set(changes.changes.map(changedToolName));
    const { questions } = this.options;
    if (!questions) {
      this.sayOnce(waiting.key, refused(changes));
      return { withheld };
    }
    if (this.declined.has(waiting.key)) return { withheld };
    return { withheld, accepted: this.ask(questions, waiting) };
  }

  /** What waits for the user now, by server. */
  pending(): ServerToolChanges[] {
    return [...this.waiting.values()].map((waiting) => waiting.changes);
  }

  /**
   * `tools --accept <server>`: what waits for the server, accepted and remembered; undefined when
   * nothing waits. Throws when the pins cannot be written.
   */
  accept(server: string): ServerToolChanges | undefined {
    const wanted = server.toLowerCase();
    const waiting = [...this.waiting.values()].find((entry) => entry.config.name.toLowerCase() === wanted);
    if (!waiting) return undefined;
    this.options.store.accept(waiting.config, waiting.tools);
    this.waiting.delete(waiting.config.name);
    return waiting.changes;
  }

  private changesOf(config: ServerConfig, tools: readonly PinnedTool[]): ServerToolChanges | undefined {
    const { store, log } = this.options;
    try {
      const check = store.check(config, tools);
      if (store.problem) this.sayOnce(store.problem, `${store.problem}.`);
      if (check.type === 'first-seen' || check.changes.length === 0) return undefined;
      return { server: config.name, changes: check.changes };
    } catch (error) {
      log.warn({ server: config.name, err: error }, 'tool pins not written');
      this.sayOnce(store.dir, `the tool pins cannot be written (${errorMessage(error)}); tools are offered unpinned.`);
      return undefined;
    }
  }

  private ask(questions: QuestionBook, waiting: Waiting): Promise<boolean> {
    const server = waiting.config.name;
    const open = this.asking.get(server);
    if (open?.key === waiting.key) return open.answer;
    // The server's list changed again while it was asked about: the question is asked anew.
    open?.stop.abort();
    const stop = new AbortController();
    const answer = questions
      .ask({ kind: 'tool-changes', changes: waiting.changes }, stop.signal)
      .answered.then((yes) => this.answered(waiting, stop, yes));
    this.asking.set(server, { key: waiting.key, stop, answer });
    return answer;
  }

  private answered(waiting: Waiting, stop: AbortController, yes: boolean): boolean {
    const { config, changes, key } = waiting;
    if (this.asking.get(config.name)?.stop === stop) this.asking.delete(config.name);
    if (stop.signal.aborted) return false;
    if (!yes) {
      this.declined.add(key);
      this.options.notify(
        `Kept back ${config.name}'s new or changed tools for this session: ${summariseChanges(changes)}. ` +
          `\`mcp-chat tools --accept ${config.name}\` accepts them.`,
      );
      return false;
    }
    if (this.waiting.get(config.name)?.key === key) this.waiting.delete(config.name);
    try {
      this.options.store.accept(config, waiting.tools);
      this.options.notify(`${config.name}'s tools are offered as they are now, and remembered.`);
    } catch (error) {
      this.options.notify(
        `${config.name}'s tools are offered as they are now, for this session: they could not be remembered (${errorMessage(error)}).`,
      );
    }
    return true;
  }

  private sayOnce(key: string, line: string): void {
    if (this.said.has(key)) return;
    this.said.add(key);
    this.options.notify(line);
  }
}

/** The one line a script says of a server whose changed tools it refuses. */
function refused(changes: ServerToolChanges): string {
  const { server } = changes;
  return (
    `${server}: ${changedToolCount(changes)} new or changed since you accepted its tools, not offered to the model: ` +
    `${summariseChanges(changes)}. \`mcp-chat tools --changes\` shows what changed; ` +
    `\`mcp-chat tools --accept ${server}\` accepts them (--accept-tool-changes: for this run only).`
  );
}

function offeredForRun(changes: ServerToolChanges): string {
  const { server } = changes;
  return (
    `${server}: ${changedToolCount(changes)} new or changed since you accepted its tools, offered for this run ` +
    `(--accept-tool-changes): ${summariseChanges(changes)}. \`mcp-chat tools --accept ${server}\` keeps them.`
  );
}
