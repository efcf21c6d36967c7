/** Server entries added and removed in a config's text: the entry changes, the rest stays byte for byte. */
import { describe, expect, it } from 'vitest';
import { addServerEntry, removeServerEntry, serverNames } from '../../src/config/config-edit.js';
import { ConfigError } from '../../src/shared/errors.js';

const FILE = '/cfg/mcp_config.json';
const written = `{
    "ollama": { "model": "qwen3",   "num_ctx": 8192 },
    "mcpServers": {
        "calc": { "command": "node", "args": ["calc.js"] }
    },
    "logging": { "level": "debug" }
}
`;

describe('config edits', () => {
  it('adds an entry in the file’s own indentation and leaves every other byte as written', () => {
    const text = addServerEntry(written, FILE, 'memory', { command: 'npx', args: ['-y', 'server-memory'] }, false);
    expect(serverNames(text, FILE)).toEqual(['calc', 'memory']);
    expect(text).toContain('"ollama": { "model": "qwen3",   "num_ctx": 8192 },');
    expect(text).toContain(
      '        "calc": { "command": "node", "args": ["calc.js"] },\n        "memory": {\n            "command": "npx",',
    );
    expect(text).toContain('"logging": { "level": "debug" }\n}\n');
    expect(JSON.parse(text)).toMatchObject({
      mcpServers: { memory: { command: 'npx', args: ['-y', 'server-memory'] } },
    });
  });

  it('refuses a name that exists (in any case) unless forced, and then replaces it', () => {
    expect(() => addServerEntry(written, FILE, 'CALC', { url: 'https://x.example/mcp' }, false)).toThrow(ConfigError);
    const forced = addServerEntry(written, FILE, 'Calc', { url: 'https://x.example/mcp' }, true);
    expect(JSON.parse(forced)).toMatchObject({ mcpServers: { Calc: { url: 'https://x.example/mcp' } } });
    expect(serverNames(forced, FILE)).toEqual(['Calc']);
  });

  it('removes an entry and nothing else; a name it lacks is an error naming those it has', () => {
    const text = removeServerEntry(written, FILE, 'calc');
    expect(serverNames(text, FILE)).toEqual([]);
    expect(text).toContain('"ollama": { "model": "qwen3",   "num_ctx": 8192 },');
    expect(() => removeServerEntry(written, FILE, 'nope')).toThrow(`${FILE} has no server "nope" (its servers: calc)`);
  });

  it('writes to mcp_servers when the file uses it, and into a file with no servers yet', () => {
    const snake = addServerEntry('{ "mcp_servers": {} }', FILE, 'a', { command: 'x' }, false);
    expect(JSON.parse(snake)).toEqual({ mcp_servers: { a: { command: 'x' } } });
    expect(JSON.parse(addServerEntry('{}', FILE, 'a', { command: 'x' }, false))).toEqual({
      mcpServers: { a: { command: 'x' } },
    });
  });

  it('a file that is not a JSON object is not edited', () => {
    expect(() => addServerEntry('{ "mcpServers": { ', FILE, 'a', { command: 'x' }, false)).toThrow(
      /is not a JSON object/,
    );
  });
});
