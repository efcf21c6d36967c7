/**
 * The session's settings as ACP config options: the model (the ones Ollama has) and the thinking
 * level (Ollama's `think`, or `auto` to leave it to Ollama). The editor shows them as selectors
 * and sets them with `session/set_config_option`.
 */
import { RequestError, type SessionConfigOption, type SetSessionConfigOptionRequest } from '@agentclientprotocol/sdk';
import { THINK_WORDS, thinkFromWord, thinkWord } from '../config/think.js';
import type { ChatSession } from '../session/chat-session.js';
import { errorMessage } from '../shared/errors.js';

const AUTO = 'auto';

const choice = (value: string): { value: string; name: string } => ({ value, name: value });

/** The options as they stand; a model list Ollama cannot give leaves only the model in use. */
export async function configOptions(
  chat: ChatSession,
  listModels: () => Promise<string[]>,
): Promise<SessionConfigOption[]> {
  const models = await listModels().catch((): string[] => []);
  const names = models.includes(chat.model) ? models : [chat.model, ...models];
  const think = chat.think === undefined ? AUTO : thinkWord(chat.think);
  return [
    {
      type: 'select',
      id: 'model',
      name: 'Model',
      category: 'model',
      currentValue: chat.model,
      options: names.map(choice),
    },
    {
      type: 'select',
      id: 'thinking',
      name: 'Thinking',
      category: 'thought_level',
      currentValue: think,
      options: [AUTO, ...THINK_WORDS].map(choice),
    },
  ];
}

/** Sets one option; an unknown option or value, or a model Ollama does not have, is an invalid-params error. */
export async function setConfigOption(chat: ChatSession, request: SetSessionConfigOptionRequest): Promise<void> {
  const value = String(request.value);
  if (request.configId === 'model') {
    await chat.switchModel(value).catch((error: unknown) => {
      throw RequestError.invalidParams(undefined, errorMessage(error));
    });
    return;
  }
  if (request.configId === 'thinking') {
    const think = value === AUTO ? undefined : thinkFromWord(value);
    if (value !== AUTO && think === undefined)
      throw RequestError.invalidParams(undefined, `thinking takes ${[AUTO, ...THINK_WORDS].join(', ')}`);
    chat.setThink(think);
    return;
  }
  throw RequestError.invalidParams(undefined, `no config option ${JSON.stringify(request.configId)}`);
}
