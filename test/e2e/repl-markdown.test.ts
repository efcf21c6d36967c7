/**
 * Markdown in the REPL as a person sees it (tmux, the built binary, the fake Ollama): the chat draws
 * its first frame before it loads the markdown renderer, and still no reply reaches the screen as
 * its source: not one answered at once, not one drawn again by `--resume` at the next start.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SCREEN_WAIT, useReplSession } from '../helpers/repl-session.js';
import { TmuxPane } from '../helpers/tmux.js';

const REPLY = 'Use **bold** here, and `code`:\n\n- first item\n- second item';
/** Markup that marked turns into styles and bullets: none of it is on a screen drawn by the renderer. */
const SOURCE_MARKUP = /\*\*bold\*\*|`code`|^- first item/m;

describe.skipIf(!TmuxPane.available())('markdown in the REPL', () => {
  // A state directory of this file's own: `--resume latest` finds the session saved here, no other.
  const stateHome = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-repl-markdown-')));
  afterAll(() => fs.rmSync(stateHome, { recursive: true, force: true }));
  const repl = useReplSession({ config: { mcpServers: {} }, env: { XDG_STATE_HOME: stateHome } });

  it('a reply is drawn as markdown', async () => {
    await repl.shows('ollama ✓');
    repl.ollama.script(REPLY);
    repl.pane.type('Show me some markdown', 'Enter');
    await vi.waitFor(() => expect(repl.pane.screen()).toMatch(/second item[\s\S]*ollama ✓/), SCREEN_WAIT);
    expect(repl.pane.screen()).toContain('Use bold here, and code:');
    expect(repl.pane.screen()).not.toMatch(SOURCE_MARKUP);
  });

  it('--resume draws the saved reply as markdown at the next start', async () => {
    // Quit as a user does: the session is on disk once the chat has gone.
    const sessions = path.join(stateHome, 'mcp-chat', 'sessions');
    repl.pane.type('', 'C-d');
    await vi.waitFor(() => expect(fs.readdirSync(sessions)).toHaveLength(1), SCREEN_WAIT);
    repl.restart(['--resume', 'latest']);
    await repl.shows('It goes on here.');
    expect(repl.pane.screen()).toContain('Use bold here, and code:');
    expect(repl.pane.screen()).not.toMatch(SOURCE_MARKUP);
  });
});
