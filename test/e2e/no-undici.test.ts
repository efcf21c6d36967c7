/**
 * mcp-chat speaks to Ollama over `node:http` and draws with Ink, and neither needs undici: Node
 * loads the whole of it the first time anything touches the global `Headers`, `Request`,
 * `Response` or `fetch`, which costs a start a visible slice of CPU. The built CLI runs with a
 * preload that writes, as the process exits, whether undici was loaded.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startFakeOllama, TEXT_MODEL } from '../fakes/fake-ollama.js';
import { useReplSession } from '../helpers/repl-session.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { SCREEN_WAIT, TmuxPane } from '../helpers/tmux.js';

const probeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-undici-'));
const PROBE = path.join(probeDir, 'probe.cjs');
fs.writeFileSync(
  PROBE,
  `process.on('exit', () => {
  const loaded = process.moduleLoadList.some((name) => name.includes('undici'));
  require('node:fs').writeFileSync(process.env.UNDICI_REPORT, 'undici loaded: ' + loaded);
});
`,
);
afterAll(() => fs.rmSync(probeDir, { recursive: true, force: true }));

const calculatorCall = JSON.stringify({
  action: 'use_tool',
  server: 'calculator',
  tool: 'evaluate',
  arguments: { expression: '6*7' },
});

const report = (name: string): string => path.join(probeDir, `${name}.txt`);
const reported = (name: string): string => (fs.existsSync(report(name)) ? fs.readFileSync(report(name), 'utf8') : '');

describe('mcp-chat ask', () => {
  it('runs a turn with a tool call without loading undici', async () => {
    const ollama = await startFakeOllama({ models: TEXT_MODEL });
    try {
      ollama.script(calculatorCall, 'It is 42.');
      const env = cleanEnv({
        HOME: probeDir,
        OLLAMA_HOST: ollama.url,
        MCP_CHAT_LOG_FILE: path.join(probeDir, 'ask-log.jsonl'),
        NODE_OPTIONS: `--require ${PROBE}`,
        UNDICI_REPORT: report('ask'),
      });
      const result = await runCli(['ask', 'What is 6*7?'], { cwd: probeDir, env });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('It is 42.');
      expect(ollama.chatRequests).toHaveLength(2);
      expect(reported('ask')).toBe('undici loaded: false');
    } finally {
      await ollama.close();
    }
  });
});

describe.skipIf(!TmuxPane.available())('the REPL', () => {
  const repl = useReplSession({ nodeArgs: ['--require', PROBE], env: { UNDICI_REPORT: report('repl') } });

  it('draws, runs a turn with a tool call and quits without loading undici', async () => {
    await repl.shows('ready');
    repl.ollama.script(calculatorCall, 'It is 42.');
    repl.pane.type('What is 6*7?', 'Enter');
    await repl.shows('It is 42.');
    repl.pane.type('quit', 'Enter');
    await vi.waitFor(() => expect(reported('repl')).not.toBe(''), SCREEN_WAIT);
    expect(reported('repl')).toBe('undici loaded: false');
  });
});
