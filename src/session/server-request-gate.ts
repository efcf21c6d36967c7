/**
 * Who decides what a server's requests get: the server's policy from the config (`sampling`,
 * `elicitation`: ask, allow, deny), then the user where one is at the keyboard. A script has
 * no one to ask: what would ask is declined (and said on stderr), except sampling under
 * `--yes`. Nothing reaches the model, and no browser opens, without the policy's or the user's
 * say; a URL is never opened by a script, and one that is not http or https never at all.
 */
import {
  DeclinedRequest,
  type FormAnswer,
  type FormField,
  type FormRequest,
  type FormValue,
  type SamplingRequest,
  type SamplingResult,
  type ServerRequestHandler,
  type ServerRequestRecord,
  type UrlAnswer,
  type UrlRequest,
} from '../vocabulary/server-requests.js';
import type { ServerConfig, ServerRequestPolicy } from '../config/types.js';
import type { QuestionBook } from '../engine/question-book.js';
import type { Logger } from '../shared/log.js';
import { urlRefusal } from './open-url.js';
import { chooseModel, sample, type SamplerModel } from './sampler.js';

export interface GateOptions {
  servers: ServerConfig[];
  /** The model that answers sampling; made only when a server first asks (a script may never need it). */
  model: () => SamplerModel | Promise<SamplerModel>;
  log: Logger;
  /**
   * Where a person is asked (the REPL, an editor, a browser), by question id; none in scripts. A
   * question is asked only while a front end listens to it: until then the request is a script's.
   */
  questions?: QuestionBook;
  /** `--yes`: a script's sampling under `ask` runs. */
  yes?: boolean;
  /** A line for the user about a request declined with no one to ask (a script's stderr). */
  notify: (line: string) => void;
  /** Opens a URL the user agreed to (the platform opener or `$BROWSER`). */
  openUrl: (url: string) => Promise<void>;
  /** Hears what became of each request. */
  onRecord?: (record: ServerRequestRecord) => void;
}

/** Fields a script may accept unasked: every one has a default (SEP-1034). */
export function defaultsOf(fields: FormField[]): Record<string, FormValue> | undefined {
  const content: Record<string, FormValue> = {};
  for (const field of fields) {
    if (field.default === undefined) return undefined;
    content[field.name] = field.default;
  }
  return content;
}

/** An answer's action as the record says it. */
const OUTCOMES = { accept: 'accepted', decline: 'declined', cancel: 'cancelled' } as const;

export class ServerRequestGate implements ServerRequestHandler {
  /** Servers the user allowed to sample for the rest of the session (`a`). */
  private readonly alwaysSample = new Set<string>();
  /** Completions being written now: the user's Esc stops them as it stops the turn. */
  private readonly generating = new Set<AbortController>();
  /** URLs the user opened, by `server elicitationId`, until the server says their step is done. */
  private readonly openedUrls = new Map<string, string>();

  constructor(private readonly options: GateOptions) {
    this.servers = options.servers;
  }

  private servers: ServerConfig[];

  /** A reloaded config's entries: their policies count from the next request. */
  useServers(servers: ServerConfig[]): void {
    this.servers = servers;
  }

  /** Where a person can be asked now: a front end listens for questions. */
  private person(): QuestionBook | undefined {
    const { questions } = this.options;
    return questions?.listening ? questions : undefined;
  }

  private policy(server: string, kind: 'sampling' | 'elicitation'): ServerRequestPolicy {
    return this.servers.find((entry) => entry.name === server)?.[kind] ?? 'ask';
  }

  sample(request: SamplingRequest, signal: AbortSignal): Promise<SamplingResult> {
    return this.recorded(request.server, 'sampling', () => this.decideSampling(request, signal), {
      accepted: (result) => ({ outcome: 'accepted', model: result.model }),
    });
  }

  fillForm(request: FormRequest, signal: AbortSignal): Promise<FormAnswer> {
    return this.recorded(request.server, 'form', () => this.decideForm(request, signal), {
      accepted: (answer) => ({ outcome: OUTCOMES[answer.action] }),
    });
  }

  visitUrl(request: UrlRequest, signal: AbortSignal): Promise<UrlAnswer> {
    return this.recorded(request.server, 'url', () => this.decideUrl(request, signal), {
      accepted: (answer) => ({ outcome: OUTCOMES[answer] }),
    });
  }

  /** Runs a decision and tells `onRecord` what became of it: `accepted` reads the answer; a throw is declined or failed. */
  private async recorded<T>(
    server: string,
    kind: ServerRequestRecord['kind'],
    decide: () => Promise<T>,
    outcome: { accepted: (answer: T) => Pick<ServerRequestRecord, 'outcome' | 'model'> },
  ): Promise<T> {
    const began = performance.now();
    const record = (fields: Pick<ServerRequestRecord, 'outcome' | 'model'>): void =>
      this.options.onRecord?.({ server, kind, ...fields, durationMs: Math.round(performance.now() - began) });
    try {
      const answer = await decide();
      record(outcome.accepted(answer));
      return answer;
    } catch (error) {
      record({ outcome: error instanceof DeclinedRequest ? 'declined' : 'failed' });
      throw error;
    }
  }

  private async decideSampling(request: SamplingRequest, signal: AbortSignal): Promise<SamplingResult> {
    const { server } = request;
    const policy = this.policy(server, 'sampling');
    if (policy === 'deny') throw new DeclinedRequest(`sampling is denied for ${server} in the config`);
    const llm = await this.options.model();
    const model = await chooseModel(request.modelHints, llm);
    const questions = this.person();
    const asks = policy === 'ask' && !this.alwaysSample.has(server);
    if (asks && !questions && !this.options.yes) {
      this.options.notify(
        `${server} asked to use the model (sampling); declined: its policy is "ask" and no one is here to answer. ` +
          `Pass --yes, or set "sampling": "allow" in its entry.`,
      );
      throw new DeclinedRequest('sampling needs the user’s approval, and this run cannot ask');
    }
    if (asks && questions) {
      const approval = await questions.ask({ kind: 'sampling', request, model }, signal).answered;
      if (approval === 'deny') throw new DeclinedRequest('the user declined the sampling request');
      if (approval === 'always') this.alwaysSample.add(server);
    }
    this.options.log.info({ server, model, maxTokens: request.maxTokens }, 'sampling for a server');
    // One question: the model sees only what the server sent (never the chat), so the completion
    // holds nothing the user did not agree to give it; a second look before it goes adds nothing.
    return this.generate(request, model, llm, signal);
  }

  /** Stops every completion being written for a server (the user cancelled); each is declined. */
  stopSampling(): void {
    for (const controller of this.generating) controller.abort();
  }

  private async generate(
    request: SamplingRequest,
    model: string,
    llm: SamplerModel,
    signal: AbortSignal,
  ): Promise<SamplingResult> {
    const stop = new AbortController();
    this.generating.add(stop);
    try {
      return await sample(request, model, llm, AbortSignal.any([signal, stop.signal]));
    } catch (error) {
      if (stop.signal.aborted) throw new DeclinedRequest('the user stopped the completion');
      throw error;
    } finally {
      this.generating.delete(stop);
    }
  }

  private async decideForm(request: FormRequest, signal: AbortSignal): Promise<FormAnswer> {
    const { server } = request;
    const policy = this.policy(server, 'elicitation');
    if (policy === 'deny') return { action: 'decline' };
    const questions = this.person();
    if (questions) return questions.ask({ kind: 'form', request }, signal).answered;
    const defaults = policy === 'allow' ? defaultsOf(request.fields) : undefined;
    if (defaults) return { action: 'accept', content: defaults };
    this.options.notify(
      policy === 'allow'
        ? `${server} asked for information (a form) with fields that have no default; declined, as no one is here to fill them in.`
        : `${server} asked for information (a form); declined: its policy is "ask" and no one is here to answer.`,
    );
    return { action: 'decline' };
  }

  private async decideUrl(request: UrlRequest, signal: AbortSignal): Promise<UrlAnswer> {
    const { server } = request;
    if (this.policy(server, 'elicitation') === 'deny') return 'decline';
    // Security: a URL that is not a web page's is refused before anyone is asked (see open-url.ts).
    const refusal = urlRefusal(request.url);
    if (refusal) {
      this.options.notify(`${server} asked you to open ${request.url}; refused: ${refusal}.`);
      return 'decline';
    }
    const questions = this.person();
    if (!questions) {
      this.options.notify(`${server} asked you to open ${request.url}; declined: no one is here to say yes.`);
      return 'decline';
    }
    // Even under `allow` the user says yes first: a URL opens a browser on their machine.
    if (!(await questions.ask({ kind: 'url', request }, signal).answered)) return 'decline';
    await this.options.openUrl(request.url);
    this.openedUrls.set(`${server} ${request.elicitationId}`, request.url);
    return 'accept';
  }

  urlCompleted(server: string, elicitationId: string): void {
    const key = `${server} ${elicitationId}`;
    const url = this.openedUrls.get(key);
    // Only a step the user took is news to them; anything else is the server's own bookkeeping (logged).
    if (url === undefined) return;
    this.openedUrls.delete(key);
    this.options.notify(`${server}: the step at ${url} is complete.`);
  }
}

/** A script's gate (`ask`, `call`): no one to ask; `yes` lets sampling under `ask` run. */
export function scriptGate(
  servers: ServerConfig[],
  model: GateOptions['model'],
  log: Logger,
  notify: (line: string) => void,
  yes: boolean,
  onRecord?: (record: ServerRequestRecord) => void,
): ServerRequestGate {
  return new ServerRequestGate({
    servers,
    model,
    log,
    yes,
    notify,
    ...(onRecord ? { onRecord } : {}),
    openUrl: () => Promise.reject(new Error('a script never opens a URL')),
  });
}
