/**
 * The script every client is played, whatever it is: the prompt kinds of the peer rows, how
 * the scripted model answers each, and what a run must show to count as done. The model finds
 * the kind in the user's words and the calculator's `evaluate` among the tools offered, so one
 * script serves every API and every client's tool naming. Pure.
 */
import type { ConversationView, OfferedTool, ScriptedCall, ScriptedReply } from './conversation.js';

export type PromptKind = 'answer' | 'one-call' | 'three-calls';
export const PROMPT_KINDS: PromptKind[] = ['answer', 'one-call', 'three-calls'];

interface Calculation {
  expression: string;
  result: string;
}

interface Prompt {
  text: string;
  calculations: Calculation[];
  /** The answer once every calculation's result came back (or at once, with none). */
  answer: string;
}

export const PROMPTS: Record<PromptKind, Prompt> = {
  answer: {
    text: 'Greet the benchmark in one short paragraph.',
    calculations: [],
    answer: 'Hello from the scripted model. This answer comes in small pieces, as a local model streams it.',
  },
  'one-call': {
    text: 'Use the calculator to multiply 1234 by 5678.',
    calculations: [{ expression: '1234 * 5678', result: '7006652' }],
    answer: 'The product is 7006652.',
  },
  'three-calls': {
    text: 'Use the calculator for 17 times 23, 2 to the 10th and 1000 minus 1, all at once.',
    calculations: [
      { expression: '17 * 23', result: '391' },
      { expression: '2 ^ 10', result: '1024' },
      { expression: '1000 - 1', result: '999' },
    ],
    answer: 'The results are 391, 1024 and 999.',
  },
};

/** A prompt that asks for a long streamed reply of numbered words (the token-to-screen budget). */
export const STORY_PROMPT = 'Tell me a long story';

/** What the model made of a request: which prompt it answered, or `side` for one it does not know. */
export type RequestKind = PromptKind | 'story' | 'side';

export interface Decision {
  kind: RequestKind;
  /** The `(#n)` tag of the prompt, if any: echoed at the end of the answer so a driver can tell turns apart. */
  tag: number | undefined;
  reply: ScriptedReply;
}

/** How the script plays a story: `words(tag)` gives its numbered words. */
export interface StoryScript {
  words: (tag: number) => string[];
}

/** Token-sized pieces: each word with the whitespace before it. */
export function splitTokens(text: string): string[] {
  return text.match(/\s*\S+|\s+/g) ?? [];
}

export const withTag = (text: string, tag: number | undefined): string =>
  tag === undefined ? text : `${text} (#${tag})`;

/** The answer a run of `kind` must print. */
export const expectedAnswer = (kind: PromptKind, tag?: number): string => withTag(PROMPTS[kind].answer, tag);

/** The kind of the prompt being answered: the last user message's (a chat's earlier ones are history). */
function kindOf(userTexts: string[]): PromptKind | 'story' | undefined {
  const last = userTexts.at(-1) ?? '';
  if (last.includes(STORY_PROMPT)) return 'story';
  return PROMPT_KINDS.find((kind) => last.includes(PROMPTS[kind].text));
}

function tagOf(userTexts: string[]): number | undefined {
  const match = /\(#(\d+)\)/.exec(userTexts.at(-1) ?? '');
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function calls(tool: OfferedTool, calculations: Calculation[]): ScriptedCall[] {
  return calculations.map((calculation, index) => ({
    id: `call_${index + 1}`,
    tool,
    arguments: { expression: calculation.expression },
  }));
}

/** The answer after the tool results: the prompt's own, or a plain statement of what went wrong. */
function answerAfterResults(prompt: Prompt, results: string[]): string {
  const missing = prompt.calculations.filter(
    (calculation) => !results.some((text) => text.includes(calculation.result)),
  );
  if (missing.length === 0) return prompt.answer;
  return `The calculator did not give ${missing.map((calculation) => calculation.result).join(', ')}.`;
}

const text = (answer: string, tag: number | undefined): ScriptedReply => ({
  type: 'text',
  chunks: splitTokens(withTag(answer, tag)),
});

/** The scripted model's reply to one request. */
export function decide(view: ConversationView, story: StoryScript): Decision {
  const kind = kindOf(view.userTexts);
  const tag = tagOf(view.userTexts);
  const evaluate = view.tools.find((tool) => /evaluate$/.test(tool.name));
  // A request without the calculator (a title, a summary) is a side request: a short plain answer.
  if (kind === undefined || evaluate === undefined)
    return { kind: 'side', tag, reply: text('Benchmark turn', undefined) };
  if (kind === 'story') return { kind, tag, reply: { type: 'text', chunks: story.words(tag ?? 0) } };
  const prompt = PROMPTS[kind];
  if (prompt.calculations.length > 0 && view.toolResults.length === 0)
    return { kind, tag, reply: { type: 'calls', calls: calls(evaluate, prompt.calculations) } };
  return { kind, tag, reply: text(answerAfterResults(prompt, view.toolResults), tag) };
}
