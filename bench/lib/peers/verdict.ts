/**
 * Whether one client run did the work its prompt asks, judged from what the scripted model
 * saw and what the client printed: the model asked with the calculator offered, tool calls
 * made exactly as scripted (their results back in the next request), the answer on stdout,
 * and a clean exit. A run that fails here is a failed row, never a fast one. Pure.
 */
import { stripVTControlCharacters } from 'node:util';
import type { ModelRequest } from '../model/server.js';
import { expectedAnswer, PROMPTS, type PromptKind } from '../model/script.js';

export type Verdict = { ok: true } | { ok: false; reason: string };

export interface RunOutput {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

const lastLine = (text: string): string => text.trim().split('\n').at(-1)?.slice(0, 200) ?? '';

function toolVerdict(kind: PromptKind, asked: ModelRequest[]): Verdict {
  const calculations = PROMPTS[kind].calculations;
  const callReplies = asked.filter((request) => request.replied === 'calls').length;
  const expectedCallReplies = calculations.length > 0 ? 1 : 0;
  if (callReplies !== expectedCallReplies)
    return {
      ok: false,
      reason: `the model was asked for its tool calls ${callReplies} times, not ${expectedCallReplies}`,
    };
  const results = asked.at(-1)?.toolResults ?? [];
  if (results.length !== calculations.length)
    return { ok: false, reason: `the last request carried ${results.length} tool results, not ${calculations.length}` };
  const missing = calculations.filter((calculation) => !results.some((text) => text.includes(calculation.result)));
  if (missing.length > 0)
    return { ok: false, reason: `no tool result gave ${missing.map((c) => c.result).join(', ')}` };
  return { ok: true };
}

export function judgeRun(kind: PromptKind, run: RunOutput, requests: ModelRequest[]): Verdict {
  if (run.timedOut) return { ok: false, reason: 'timed out' };
  if (run.code !== 0) return { ok: false, reason: `exited with ${run.code}: ${lastLine(run.stderr || run.stdout)}` };
  const asked = requests.filter((request) => request.kind === kind);
  if (asked.length === 0) return { ok: false, reason: 'never asked the model with the calculator offered' };
  const tools = toolVerdict(kind, asked);
  if (!tools.ok) return tools;
  if (!stripVTControlCharacters(run.stdout).includes(expectedAnswer(kind)))
    return {
      ok: false,
      reason: `the answer is not on stdout (it ends: ${lastLine(stripVTControlCharacters(run.stdout))})`,
    };
  return { ok: true };
}
