/**
 * A server's instructions in the system prompt: quoted under the server's heading in the text
 * tool modes, a "Server notes" section natively; capped with the cut said; without the secrets
 * the server's entry gives it; and a prompt kept per tools array that follows the instructions.
 */
import { describe, expect, it } from 'vitest';
import { buildSystemPrompt } from '../../src/engine/system-prompt.js';
import { toolProtocol } from '../../src/engine/tool-protocol.js';
import type { ToolSpec } from '../../src/vocabulary/types.js';
import { instructionsForModel, MAX_INSTRUCTIONS_CHARS } from '../../src/mcp/server-instructions.js';
import { stdioServer } from '../helpers/server-configs.js';

const schema = { type: 'object' as const, properties: { expression: { type: 'string' } }, required: ['expression'] };
const spec = (server: string, name: string, serverInstructions?: string): ToolSpec => ({
  server,
  name,
  description: `${name} things`,
  inputSchema: schema,
  ...(serverInstructions === undefined ? {} : { serverInstructions }),
});
const CALCULATOR = 'Use evaluate for any arithmetic.\n\n# Never\nGuess a result.';
const catalogue = (): ToolSpec[] => [
  spec('calculator', 'evaluate', CALCULATOR),
  spec('calculator', 'convert', CALCULATOR),
  spec('file', 'read_file'),
];
const QUOTED = [
  'Its instructions, in its own words:',
  '> Use evaluate for any arithmetic.',
  '>',
  '> # Never',
  '> Guess a result.',
].join('\n');

describe('server instructions in the system prompt', () => {
  it.each(['json', 'xml'] as const)('%s mode: quoted under the server’s heading, once, before its tools', (mode) => {
    const prompt = buildSystemPrompt(catalogue(), mode);
    expect(prompt).toContain(`## Server "calculator"\n${QUOTED}\n- evaluate: evaluate things`);
    expect(prompt.split('Use evaluate for any arithmetic').length).toBe(2);
    // A server without instructions has none, and no empty quote.
    expect(prompt).toContain('## Server "file"\n- read_file: read_file things');
  });

  it('native mode: a short "Server notes" section after the usual prompt', () => {
    const prompt = toolProtocol('native').systemPrompt(catalogue());
    expect(prompt).toMatch(/answer the user\.\n\n# Server notes\n## Server "calculator"\nIts instructions/);
    expect(prompt.endsWith(QUOTED)).toBe(true);
    expect(prompt).not.toContain('Server "file"');
  });

  it('no instructions, no notes: the prompt is as before', () => {
    const prompt = buildSystemPrompt([spec('file', 'read_file')], 'native');
    expect(prompt).not.toContain('Server notes');
    expect(prompt.split('\n')).toHaveLength(2);
  });

  it('kept per tools array: the same array gives the same prompt, a new catalogue its own instructions', () => {
    const first = catalogue();
    expect(buildSystemPrompt(first, 'json')).toBe(buildSystemPrompt(first, 'json'));
    // A reconnect: the host builds a new catalogue, with what the new session said.
    const reconnected = first.map((tool) => ({ ...tool, serverInstructions: 'Prefer exact fractions.' }));
    expect(buildSystemPrompt(reconnected, 'json')).toContain('> Prefer exact fractions.');
    expect(buildSystemPrompt(reconnected, 'json')).not.toContain('Use evaluate');
    expect(buildSystemPrompt(first, 'json')).toContain('Use evaluate');
  });
});

describe('a server’s instructions for the model', () => {
  const config = stdioServer('notes', [], { env: { API_KEY: 'sk-live-0123456789abcdef' } });

  it('lose the secrets the server’s entry gives it', () => {
    expect(instructionsForModel('Authenticate with sk-live-0123456789abcdef first.', config)).toBe(
      'Authenticate with [REDACTED] first.',
    );
  });

  it(`are capped at ${MAX_INSTRUCTIONS_CHARS} characters, the cut said, and a secret across the cut is hidden whole`, () => {
    const long = `${'a'.repeat(MAX_INSTRUCTIONS_CHARS - 10)}sk-live-0123456789abcdef${'b'.repeat(600)}`;
    const capped = instructionsForModel(long, config) ?? '';
    expect(capped.startsWith('a'.repeat(MAX_INSTRUCTIONS_CHARS - 10))).toBe(true);
    expect(capped).toContain('[… truncated: showing 1000 of');
    expect(capped).not.toContain('sk-live-01');
    expect(capped.length).toBeLessThan(MAX_INSTRUCTIONS_CHARS + 80);
  });

  it('none, or only whitespace, is none', () => {
    expect(instructionsForModel(undefined, config)).toBeUndefined();
    expect(instructionsForModel(' \n ', config)).toBeUndefined();
  });
});
