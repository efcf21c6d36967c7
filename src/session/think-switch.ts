/**
 * `/think [on|off|low|medium|high|max]`: bare, it turns reasoning the other way from what the model
 * does now (unset means Ollama's default: a model that can think does); with a word, it sets it.
 * Pure: what to set and what to say.
 */
import type { ThinkSetting } from '../vocabulary/types.js';
import { THINK_WORDS, thinkFromWord, thinkWord } from '../config/think.js';

export type ThinkSwitch = { type: 'set'; think: ThinkSetting; text: string } | { type: 'error'; text: string };

export interface ThinkNow {
  /** The setting now; `undefined`: left to Ollama. */
  setting: ThinkSetting | undefined;
  model: string;
  canThink: boolean;
}

export function switchThink(now: ThinkNow, word: string | undefined): ThinkSwitch {
  const asked = word === undefined ? undefined : thinkFromWord(word);
  if (word !== undefined && asked === undefined)
    return { type: 'error', text: `/think takes ${THINK_WORDS.join(', ')}, or nothing to switch it; not "${word}".` };
  const thinkingNow = now.setting === undefined ? now.canThink : now.setting !== false;
  const think = asked ?? !thinkingNow;
  if (!now.canThink && think !== false) {
    const text = `Thinking ${thinkWord(think)}, but ${now.model} cannot think: it applies once you switch to a model that can (model <name>).`;
    return { type: 'set', think, text };
  }
  const shown =
    think === false
      ? '.'
      : ': the reasoning streams dim and folds to one line when the answer starts (debug shows it whole).';
  return { type: 'set', think, text: `Thinking ${thinkWord(think)}${shown}` };
}
