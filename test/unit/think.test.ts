/**
 * `think`: the config field and `--think` flag, the decision per request (only for a model that
 * can think, told once per model otherwise), the `/think` switch, and the wire body.
 */
import { describe, expect, it } from 'vitest';
import { decideThink, ThinkControl } from '../../src/engine/think-control.js';
import type { LlmCapabilities } from '../../src/vocabulary/types.js';
import { loadConfig } from '../../src/config/load.js';
import { parseThinkFlag } from '../../src/config/think.js';
import { buildChatBody } from '../../src/ollama/wire.js';
import { switchThink } from '../../src/session/think-switch.js';
import { UsageError } from '../../src/shared/errors.js';
import { configErrorOf, useConfigDir } from '../helpers/config-dir.js';

const CAN_THINK: LlmCapabilities = { tools: true, thinking: true };
const CANNOT: LlmCapabilities = { tools: true, thinking: false };

const { write, options } = useConfigDir();
const load = (ollama: Record<string, unknown>) =>
  loadConfig(options({ configPath: write('mcp_config.json', { ollama, mcpServers: {} }) }));

describe('ollama.think in the config', () => {
  it('takes true, false and the effort levels; leaves it unset by default', () => {
    expect(load({}).ollama.think).toBeUndefined();
    expect(load({ think: true }).ollama.think).toBe(true);
    expect(load({ think: false }).ollama.think).toBe(false);
    expect(load({ think: 'medium' }).ollama.think).toBe('medium');
    expect(load({ think: 'max' }).ollama.think).toBe('max');
  });

  it('refuses anything else, naming the field', () => {
    expect(configErrorOf(() => load({ think: 'loud' })).message).toContain('ollama.think');
    expect(configErrorOf(() => load({ think: 1 })).message).toContain('ollama.think');
  });
});

describe('--think', () => {
  it('is on when bare, and takes on, off and the levels in any case', () => {
    expect(parseThinkFlag(true)).toBe(true);
    expect(parseThinkFlag('on')).toBe(true);
    expect(parseThinkFlag('OFF')).toBe(false);
    expect(parseThinkFlag('high')).toBe('high');
    expect(parseThinkFlag('Max')).toBe('max');
  });

  it('is a usage error otherwise, saying how to write it before a prompt', () => {
    expect(() => parseThinkFlag('What is 2+2?')).toThrow(UsageError);
    expect(() => parseThinkFlag('loud')).toThrow(/--think takes on, off, low, medium, high, max, got "loud"/);
  });
});

describe('think on a request', () => {
  it('is sent as set to a model that can think, and left out when unset', () => {
    expect(decideThink(undefined, 'qwen3', CAN_THINK)).toEqual({});
    expect(decideThink('low', 'qwen3', CAN_THINK)).toEqual({ think: 'low' });
    expect(decideThink(false, 'qwen3', CAN_THINK)).toEqual({ think: false });
  });

  it('is left out for a model that cannot think; asking for reasoning says so, off needs no word', () => {
    expect(decideThink(true, 'llama3.2', CANNOT)).toEqual({ notice: expect.stringContaining('llama3.2 cannot think') });
    expect(decideThink(false, 'llama3.2', CANNOT)).toEqual({});
  });

  it('tells once per model, and asks for capabilities only when set', async () => {
    const control = new ThinkControl(undefined);
    let asked = 0;
    const caps = async (): Promise<LlmCapabilities> => {
      asked += 1;
      return CANNOT;
    };
    expect(await control.forRequest('llama3.2', caps)).toEqual({});
    expect(asked).toBe(0);
    control.setting = 'high';
    expect((await control.forRequest('llama3.2', caps)).notice).toBeDefined();
    expect(await control.forRequest('llama3.2', caps)).toEqual({});
    expect((await control.forRequest('gemma3', caps)).notice).toContain('gemma3');
  });
});

describe('/think', () => {
  const qwen = { model: 'qwen3', canThink: true };

  it('bare, turns reasoning the other way from what the model does now', () => {
    // Unset, a model that can think does (Ollama's default): the switch turns it off.
    expect(switchThink({ ...qwen, setting: undefined }, undefined)).toMatchObject({ think: false });
    expect(switchThink({ ...qwen, setting: false }, undefined)).toMatchObject({ think: true });
    expect(switchThink({ ...qwen, setting: 'high' }, undefined)).toMatchObject({ think: false });
    expect(switchThink({ model: 'llama3.2', canThink: false, setting: undefined }, undefined)).toMatchObject({
      think: true,
      text: expect.stringContaining('llama3.2 cannot think'),
    });
  });

  it('with a word, sets it; an unknown word is an error', () => {
    expect(switchThink({ ...qwen, setting: undefined }, 'medium')).toMatchObject({ type: 'set', think: 'medium' });
    expect(switchThink({ ...qwen, setting: undefined }, 'maybe')).toMatchObject({ type: 'error' });
  });
});

describe('the request body', () => {
  const settings = {
    baseUrl: 'http://127.0.0.1:1',
    model: 'qwen3',
    timeoutMs: 1000,
    numCtx: 4096,
    toolMode: 'auto' as const,
    options: {},
  };
  const messages = [{ role: 'user' as const, content: 'hi' }];

  it('carries think and format only when the request has them', () => {
    const plain = buildChatBody(settings, { messages });
    expect(plain).not.toHaveProperty('think');
    expect(plain).not.toHaveProperty('format');
    const schema = { type: 'object', properties: { n: { type: 'integer' } } };
    const body = buildChatBody(settings, { messages, think: false, format: schema });
    expect(body.think).toBe(false);
    expect(body.format).toEqual(schema);
  });
});
