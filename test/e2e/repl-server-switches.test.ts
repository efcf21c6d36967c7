/**
 * Servers and tools switched off in the REPL (tmux, the built binary): `/disable` stops a server
 * and the status bar and `tools` say so; `/enable` brings it back; a tool the config turns off is
 * named by `tools` as turned off.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { useReplSession } from '../helpers/repl-session.js';
import { TmuxPane } from '../helpers/tmux.js';

const CALCULATOR = path.join(REPO_ROOT, 'dist/servers/calculator/main.js');

describe.skipIf(!TmuxPane.available())('switching servers off and on in the REPL', () => {
  const repl = useReplSession({
    height: 40,
    config: {
      mcpServers: {
        calc: { command: 'node', args: [CALCULATOR] },
        calc2: { command: 'node', args: [CALCULATOR], excludeTools: ['evaluate'] },
      },
    },
  });

  it('tools names a tool the config turns off; /disable takes a server away, /enable brings it back', async () => {
    await repl.shows('calc2 ✓');
    repl.pane.type('tools', 'Enter');
    await repl.shows("Turned off in calc2's config entry (not offered, not callable): evaluate");
    repl.pane.type('/disable calc', 'Enter');
    await repl.shows('calc is off: its tools are not offered until /enable calc.');
    await repl.shows('calc off');
    repl.pane.type('servers', 'Enter');
    await repl.shows('calc         disabled');
    repl.pane.type('/enable calc', 'Enter');
    await repl.shows('calc is on:');
    await repl.shows('calc ✓');
    repl.pane.type('/enable', 'Enter');
    await repl.shows('name the server: /enable <server> (calc, calc2)');
    expect(repl.pane.screen()).not.toContain('calc off');
    // Two servers started, one stopped and started again, five commands: more than the default 20 s on a loaded machine.
  }, 60_000);
});
