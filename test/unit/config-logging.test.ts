/**
 * The `logging` section resolved: where the log goes when nothing says (the state directory, not
 * the working directory), and the rotation settings with their units.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { configErrorOf, useConfigDir } from '../helpers/config-dir.js';

const { root, write, options } = useConfigDir();
const minimal = { mcpServers: {} };
const at = (relative: string): string => path.join(root(), relative);

function load(content: unknown, env: Record<string, string> = {}): ReturnType<typeof loadConfig> {
  return loadConfig(options({ configPath: write('proj/mcp_config.json', content), env }));
}

describe('logging settings', () => {
  it('a chat run in any directory logs under $XDG_STATE_HOME/mcp-chat/logs, not in that directory', () => {
    expect(load(minimal, { XDG_STATE_HOME: at('state') }).logging.file).toBe(at('state/mcp-chat/logs/mcp-chat.log'));
    expect(load(minimal, { HOME: at('home') }).logging.file).toBe(at('home/.local/state/mcp-chat/logs/mcp-chat.log'));
  });

  it('logging.file and MCP_CHAT_LOG_FILE still override the state directory, the variable first', () => {
    const env = { XDG_STATE_HOME: at('state') };
    expect(load({ ...minimal, logging: { file: '/var/log/chat.log' } }, env).logging.file).toBe('/var/log/chat.log');
    const both = load(
      { ...minimal, logging: { file: '/var/log/chat.log' } },
      { ...env, MCP_CHAT_LOG_FILE: 'here.log' },
    );
    expect(both.logging.file).toBe(at('work/here.log'));
  });

  it('logging.max_size takes its unit (k, m, g, with or without b); logging.files a count', () => {
    const sizes = ['512k', '10m', '1g', '2 MB', '64kb'].map(
      (size) => load({ ...minimal, logging: { max_size: size, files: 3 } }).logging,
    );
    expect(sizes.map((logging) => logging.maxBytes)).toEqual([
      512 * 1024,
      10 * 1024 ** 2,
      1024 ** 3,
      2 * 1024 ** 2,
      65536,
    ]);
    expect(sizes.every((logging) => logging.files === 3)).toBe(true);
  });

  it('a size without a unit is refused rather than guessed (bytes or megabytes?), naming the field', () => {
    const message = (logging: unknown): string => configErrorOf(() => load({ ...minimal, logging })).message;
    expect(message({ max_size: 10 })).toContain('logging.max_size: expected string, got number');
    for (const size of ['10', '0m', '-1k', '1.5m', 'ten megabytes']) {
      expect(message({ max_size: size })).toContain(
        'logging.max_size: a size with its unit, such as "512k", "10m" or "1g"',
      );
    }
    expect(message({ files: 0 })).toContain('logging.files');
    expect(message({ files: 2.5 })).toContain('logging.files');
  });
});
