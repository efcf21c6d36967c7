/** The status bar's parts at a width: whole when they fit, shortened by priority when they do not. */
import { describe, expect, it } from 'vitest';
import { statusParts, type StatusInput } from '../../src/ui/status-line.js';

const ready = (name: string, toolCount: number) => ({
  name,
  kind: 'stdio' as const,
  state: 'ready' as const,
  toolCount,
});

const INPUT: StatusInput = {
  model: 'qwen2.5-coder:14b-instruct-q4_K_M',
  ollama: { state: 'ok' },
  servers: [ready('calculator', 1), ready('filesystem', 14), ready('everything', 11)],
  context: { used: 2310, size: 8192 },
};

const line = (input: StatusInput, width: number): string =>
  statusParts(input, width)
    .map((part) => part.text)
    .join('  ');

describe('the status bar at a width', () => {
  it('is whole when it fits', () => {
    expect(line(INPUT, 200)).toBe(
      'qwen2.5-coder:14b-instruct-q4_K_M  ollama ✓  2,310/8,192 ctx (28%)  calculator ✓ 1  filesystem ✓ 14  everything ✓ 11  ready',
    );
  });

  it('shortens the gauge first, then counts the servers that are fine, then cuts the model name', () => {
    expect(line(INPUT, 110)).toBe(
      'qwen2.5-coder:14b-instruct-q4_K_M  ollama ✓  ctx 28%  calculator ✓ 1  filesystem ✓ 14  everything ✓ 11  ready',
    );
    expect(line(INPUT, 80)).toBe('qwen2.5-coder:14b-instruct-q4_K_M  ollama ✓  ctx 28%  3 servers ✓ 26  ready');
    expect(line(INPUT, 60)).toBe('qwen2.5-cod…  ollama ✓  ctx 28%  3 servers ✓ 26  ready');
  });

  it('keeps a server that is not fine by name, a context nearly full, and what a turn is doing whole', () => {
    const failed = { name: 'github', kind: 'remote' as const, state: 'failed' as const, toolCount: 0 };
    const input = { ...INPUT, servers: [...INPUT.servers, failed], busy: 'responding' };
    // Ollama answering and a context far from full go before any of that is cut.
    expect(line(input, 80)).toBe('qwen2.5-cod…  3 servers ✓ 26  github ✗ failed  responding · Esc cancels');
    const full = { ...input, context: { used: 8000, size: 8192 } };
    expect(line(full, 80)).toBe('qwen2.5-cod…  ctx 98%  3 servers ✓ 26  github ✗ failed  responding · Esc cancels');
  });
});
