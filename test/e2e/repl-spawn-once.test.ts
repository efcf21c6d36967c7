/**
 * The REPL's servers as a person runs it (tmux, the built binary): each configured server is
 * started once, both at once, and no server process is left once the chat is quit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SCREEN_WAIT, useReplSession } from '../helpers/repl-session.js';
import { isProcessAlive, REPO_ROOT } from '../helpers/server-configs.js';
import { TmuxPane } from '../helpers/tmux.js';

const SCRIPTED = path.join(REPO_ROOT, 'test/fixtures/servers/scripted-server.mjs');
/** Each server writes `<name>.<pid>` here as it starts, and answers once both have. */
const rendezvous = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-repl-spawns-'));
afterAll(() => fs.rmSync(rendezvous, { recursive: true, force: true }));
const server = (name: string) => ({ command: 'node', args: [SCRIPTED, `name=${name}`, `rendezvous=${rendezvous}:2`] });
const startedPids = (): number[] => fs.readdirSync(rendezvous).map((file) => Number(file.split('.').pop()));

describe.skipIf(!TmuxPane.available())('the REPL starts its servers', () => {
  const repl = useReplSession({ config: { mcpServers: { one: server('one'), two: server('two') } } });

  it('once each, and none is left after quitting', async () => {
    await repl.shows('ready');
    expect(fs.readdirSync(rendezvous).sort()).toEqual([
      expect.stringMatching(/^one\.\d+$/),
      expect.stringMatching(/^two\.\d+$/),
    ]);
    repl.pane.type('', 'C-d');
    await vi.waitFor(() => expect(repl.pane.exited()).toBe(true), SCREEN_WAIT);
    await vi.waitFor(() => expect(startedPids().filter(isProcessAlive)).toEqual([]), SCREEN_WAIT);
  });
});
