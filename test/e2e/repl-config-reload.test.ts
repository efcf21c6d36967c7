/**
 * The config file changes while the chat runs (tmux, the built binary, the fake Ollama): a server
 * added to the file starts and is callable without a restart; a broken edit is reported with
 * where it is wrong and the running servers stay up; `/reload` does the same by hand.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { useReplSession } from '../helpers/repl-session.js';
import { TmuxPane } from '../helpers/tmux.js';

const CALCULATOR = path.join(REPO_ROOT, 'dist/servers/calculator/main.js');
const calc = { command: 'node', args: [CALCULATOR] };

describe.skipIf(!TmuxPane.available())('the config file changes while the REPL runs', () => {
  // The user's own file (--config): a working directory's file is reloaded only as trusted (repl-trust-attacks).
  const repl = useReplSession({ height: 40, config: { mcpServers: { calc } }, configBy: 'flag' });
  const write = (config: unknown): void =>
    fs.writeFileSync(
      path.join(repl.workDir, 'mcp_config.json'),
      typeof config === 'string' ? config : JSON.stringify(config),
    );

  it('a server added to the file starts and is callable, without a restart', async () => {
    await repl.shows('calc ✓');
    write({ mcpServers: { calc, more: { ...calc, alwaysAllow: ['evaluate'] } } });
    await repl.shows('mcp_config.json: added more.');
    await repl.shows('more ✓');
    const call = JSON.stringify({
      action: 'use_tool',
      server: 'more',
      tool: 'evaluate',
      arguments: { expression: '6*7' },
    });
    repl.ollama.script(call, 'It is 42.');
    repl.pane.type('what is 6*7?', 'Enter');
    await repl.shows('It is 42.');
    const sent = repl.ollama.chatRequests.flatMap((request) => request.messages).map((message) => message.content);
    expect(sent.some((content) => content.includes('42'))).toBe(true);
  });

  it('a broken edit says where it is wrong and keeps the running servers; /reload applies a fixed one', async () => {
    write({ mcpServers: { calc, more: { ...calc, timeout: 'soon' } } });
    await repl.shows('The config change was not applied; the running servers are kept.');
    await repl.shows('mcpServers.more.timeout');
    expect(repl.pane.screen()).toContain('more ✓');
    write({ mcpServers: { calc } });
    await repl.shows('mcp_config.json: removed more.');
    repl.pane.type('/reload', 'Enter');
    await repl.shows('mcp_config.json: no server changed.');
    expect(repl.pane.screen()).not.toContain('more ✓');
  });
});
