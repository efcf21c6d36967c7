/**
 * The trust gate on a real temporary directory, with a real store: what is asked about, hashed and
 * handed on to be loaded is one read of the file, and a trusted `.env` cannot steer discovery.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Env } from '../../src/config/expand.js';
import { passTrustGate, type TrustQuestion } from '../../src/session/trust-gate.js';
import { snapshot, TrustStore, type FileSnapshot } from '../../src/state/trust-store.js';
import { SHIPPED_CONFIG } from '../helpers/config-dir.js';

let dir: string;
let repo: string;
let store: TrustStore;

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-trust-gate-')));
  repo = path.join(dir, 'repo');
  fs.mkdirSync(repo);
  store = new TrustStore(path.join(dir, 'state', 'trusted.json'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const servers = (...names: string[]): string =>
  JSON.stringify({ mcpServers: Object.fromEntries(names.map((name) => [name, { command: 'node' }])) });

function write(name: string, content: string): FileSnapshot {
  fs.writeFileSync(path.join(repo, name), content);
  return snapshot(path.join(repo, name)) as FileSnapshot;
}

function gate(env: Env, askTrust?: (question: TrustQuestion) => Promise<'trust' | 'skip'>) {
  const notices: string[] = [];
  const load = { cwd: repo, env, packageConfigPath: SHIPPED_CONFIG, xdgConfigHome: path.join(dir, 'xdg') };
  const result = passTrustGate({
    load,
    store,
    trustOnce: false,
    packageRoot: path.join(dir, 'not-the-package'),
    askTrust,
    notify: (line) => notices.push(line),
  });
  return { result, notices };
}

describe('passTrustGate', () => {
  it('names the Ollama the chat will really go to: OLLAMA_HOST over the file, which it says is not used', async () => {
    write('mcp_config.json', JSON.stringify({ ollama: { base_url: 'http://10.0.0.9:11434' }, mcpServers: {} }));
    let question: TrustQuestion | undefined;
    const { result } = gate({ OLLAMA_HOST: 'gpu-box:8080' }, async (asked) => {
      question = asked;
      return 'skip';
    });
    await result;
    expect(question?.lines).toContain(
      '  sends the chat to http://gpu-box:8080 (OLLAMA_HOST; its own http://10.0.0.9:11434 is not used)',
    );
  });

  it('swap while asking: the bytes shown are the bytes handed on and remembered, not a later edit', async () => {
    const shown = write('mcp_config.json', servers('calc'));
    let question: TrustQuestion | undefined;
    const { result } = gate({}, async (asked) => {
      question = asked;
      write('mcp_config.json', servers('calc', 'swapped'));
      return 'trust';
    });
    const found = await result;
    expect(question?.lines.join('\n')).not.toContain('swapped');
    expect(found.content.toString()).toBe(servers('calc'));
    expect(found.trustedForRun?.content.toString()).toBe(servers('calc'));
    expect(store.isTrusted(shown)).toBe(true);
    expect(store.isTrusted(snapshot(shown.path) as FileSnapshot)).toBe(false);
  });

  it('config swap by .env: a trusted .env naming MCP_CHAT_CONFIG or XDG_CONFIG_HOME does not move discovery', async () => {
    const hidden = path.join(dir, 'hidden.json');
    fs.writeFileSync(hidden, servers('steal'));
    fs.mkdirSync(path.join(dir, 'xdg2', 'mcp-chat'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'xdg2', 'mcp-chat', 'mcp_config.json'), servers('steal'));
    const dotEnv = write('.env', `MCP_CHAT_CONFIG=${hidden}\nXDG_CONFIG_HOME=${path.join(dir, 'xdg2')}\nA=1\n`);
    store.trust([dotEnv]);
    const env: Env = {};
    const { result, notices } = gate(env);
    const found = await result;
    expect(found.origin).toBe('package');
    expect(env).toEqual({ A: '1' });
    expect(notices).toEqual([
      `${dotEnv.path}: MCP_CHAT_CONFIG is not used: a project's .env may not choose the config (that file was never ` +
        'shown to you or trusted); pass --config or set it in your shell',
      `${dotEnv.path}: XDG_CONFIG_HOME is not used: a project's .env may not move where mcp-chat finds your config ` +
        'or keeps its state; set it in your shell',
    ]);
    expect(found.refused).toEqual(notices);
  });

  it('config swap by .env: a .env trusted along with the config at the question is held to the same rule', async () => {
    write('mcp_config.json', servers('calc'));
    write('.env', `MCP_CHAT_CONFIG=${path.join(dir, 'hidden.json')}\n`);
    let lines: string[] = [];
    const env: Env = {};
    const { result, notices } = gate(env, async (question) => {
      lines = question.lines;
      return 'trust';
    });
    const found = await result;
    expect(found).toMatchObject({ origin: 'cwd', path: path.join(repo, 'mcp_config.json') });
    expect(env).toEqual({});
    expect(lines).toContain(`${path.join(repo, '.env')}: sets no variables`);
    expect(lines.some((line) => line.includes('MCP_CHAT_CONFIG is not used'))).toBe(true);
    expect(notices.some((line) => line.includes('MCP_CHAT_CONFIG is not used'))).toBe(true);
  });
});
