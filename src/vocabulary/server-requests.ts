/**
 * What a server may ask of mcp-chat, in our terms: a completion from the user's model
 * (sampling), information from the user as a form, or a visit to a URL (elicitation). `mcp/`
 * turns the protocol's requests into these; `session/` decides, by the server's policy and the
 * user's answers, what goes back.
 */

export interface SamplingMessage {
  role: 'user' | 'assistant';
  text: string;
  /** Images the message carries (given to a model that can see), base64. */
  images: { data: string; mimeType: string }[];
}

export interface SamplingRequest {
  server: string;
  messages: SamplingMessage[];
  systemPrompt?: string;
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  /** Model names the server would like, best first (`modelPreferences.hints`). */
  modelHints: string[];
}

export interface SamplingResult {
  /** The model that wrote the completion. */
  model: string;
  text: string;
  stopReason: 'endTurn' | 'maxTokens';
}

interface FieldCommon {
  name: string;
  title?: string;
  description?: string;
  required: boolean;
  /** Its name or title says it is a secret (a password, a token): masked, never shown or kept. */
  secret?: true;
}

/** One field of a form a server asks the user to fill in (`requestedSchema`'s properties). */
export type FormField = FieldCommon &
  (
    | {
        kind: 'string';
        format?: 'email' | 'uri' | 'date' | 'date-time';
        minLength?: number;
        maxLength?: number;
        default?: string;
      }
    | { kind: 'number' | 'integer'; minimum?: number; maximum?: number; default?: number }
    | { kind: 'boolean'; default?: boolean }
    | { kind: 'choice'; options: FieldOption[]; default?: string }
    | { kind: 'choices'; options: FieldOption[]; minItems?: number; maxItems?: number; default?: string[] }
  );

export interface FieldOption {
  value: string;
  label: string;
}

export type FormValue = string | number | boolean | string[];

export interface FormRequest {
  server: string;
  message: string;
  fields: FormField[];
}

/** `accept` with the values, `decline` (the user said no), `cancel` (the user went away from it). */
export type FormAnswer = { action: 'accept'; content: Record<string, FormValue> } | { action: 'decline' | 'cancel' };

export interface UrlRequest {
  server: string;
  message: string;
  url: string;
  /** Names the request in the server's later `notifications/elicitation/complete`. */
  elicitationId: string;
}

export type UrlAnswer = 'accept' | 'decline' | 'cancel';

/**
 * Answers a server's requests; `signal` aborts when the server withdraws the request (or it
 * times out). Sampling that is not allowed throws a `DeclinedRequest`.
 */
export interface ServerRequestHandler {
  sample(request: SamplingRequest, signal: AbortSignal): Promise<SamplingResult>;
  fillForm(request: FormRequest, signal: AbortSignal): Promise<FormAnswer>;
  visitUrl(request: UrlRequest, signal: AbortSignal): Promise<UrlAnswer>;
  /** The server says the step behind a URL it asked to open is done. */
  urlCompleted(server: string, elicitationId: string): void;
}

/**
 * What a sampling request asks, as every front end shows it before the user answers: the system
 * prompt, each message (and how many images it carries), then its limits on one line.
 */
export function samplingLines(request: SamplingRequest): { asked: string[]; limits: string } {
  const messages = request.messages.map((message) => {
    const images = message.images.length > 0 ? ` [+${message.images.length} image(s)]` : '';
    return `${message.role}: ${message.text}${images}`;
  });
  const system = request.systemPrompt ? [`system: ${request.systemPrompt}`] : [];
  const limits = [
    `at most ${request.maxTokens} tokens`,
    ...(request.temperature === undefined ? [] : [`temperature ${request.temperature}`]),
    ...(request.stopSequences?.length ? [`stops at ${JSON.stringify(request.stopSequences)}`] : []),
  ];
  return { asked: [...system, ...messages], limits: limits.join(' · ') };
}

/** What became of one server request: for `debug`, the log and `ask --json`. */
export interface ServerRequestRecord {
  server: string;
  kind: 'sampling' | 'form' | 'url';
  outcome: 'accepted' | 'declined' | 'cancelled' | 'failed';
  /** Sampling: the model that answered. */
  model?: string;
  durationMs: number;
}

/** `debug`'s line for a record. */
export function formatServerRequest(record: ServerRequestRecord): string {
  const model = record.model ? ` on ${record.model}` : '';
  const what = { sampling: 'a completion', form: 'a form', url: 'a URL to open' }[record.kind];
  return `${record.server} asked for ${what}${model}: ${record.outcome} (${record.durationMs} ms)`;
}

/** A request the user or the policy declined; the message says why, to the server and the log. */
export class DeclinedRequest extends Error {
  override name = 'DeclinedRequest';
}
