/**
 * Pulling a model from the REPL: the real binary in a terminal (tmux), the fake Ollama's
 * `/api/pull`. `/model <name>` for a model that is not pulled offers it for download; y pulls it
 * with a live progress line and then switches; Esc cancels the pull and keeps the model; n, or any
 * other line, pulls nothing; a pull Ollama refuses says its status and body. Each answer waits for the prompt, which shows once the offer takes one. A REPL started with a model that is not pulled offers it too.
 */
import { describe, expect, it, vi } from 'vitest';
import type { RecordedRequest } from '../fakes/fake-ollama.js';
import { SCREEN_WAIT, useReplSession, type ReplSession } from '../helpers/repl-session.js';
import { TmuxPane } from '../helpers/tmux.js';

const NO_SERVERS = { mcpServers: {} };

function pullsOf(repl: ReplSession, name: string): RecordedRequest[] {
  return repl.ollama.requests.filter(
    (request) => request.path === '/api/pull' && (request.body as { name?: string }).name === name,
  );
}

/** A promise the test settles: the fake holds the download until then. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe.skipIf(!TmuxPane.available())('/model <name> for a model that is not pulled', () => {
  const repl = useReplSession({ config: NO_SERVERS });
  const { pane } = repl;

  it('n declines: nothing is pulled, the model stays', async () => {
    repl.ollama.offerPull('newmodel');
    await repl.shows('ollama ✓');
    pane.type('/model newmodel', 'Enter');
    await repl.shows('newmodel is not pulled. Pull it now? y/n');
    expect(pane.screen()).toContain('Pull it with `ollama pull newmodel`');
    await repl.shows('pull? y/n ›');
    pane.type('n', 'Enter');
    await repl.shows('newmodel not pulled. The model is still llama3.2.');
    expect(pullsOf(repl, 'newmodel')).toEqual([]);
    expect(pane.screen()).toMatch(/^llama3\.2 {2}ollama ✓/m);
  });

  it('y pulls with a live progress line, then switches, and the next message goes to the new model', async () => {
    const held = gate();
    repl.ollama.offerPull('newmodel', {
      layers: [4_000_000_000, 700],
      steps: 10,
      hold: { afterLines: 5, until: held.opened },
    });
    pane.type('/model newmodel', 'Enter');
    await repl.shows('pull? y/n ›');
    pane.type('y', 'Enter');
    // Held early in the weights: the line shows the bar, the share and the bytes of the total.
    await vi.waitFor(
      () => expect(pane.screen()).toMatch(/↓ newmodel {2}█*░+ {2}\d+% {2}[\d.]+ [kMG]?B \/ 4\.0 GB.*Esc cancels/),
      SCREEN_WAIT,
    );
    held.open();
    await vi.waitFor(
      () => expect(pane.screen()).toMatch(/Pulled newmodel \(4\.0 GB in [^)]+\)\. Model switched to newmodel\./),
      SCREEN_WAIT,
    );
    await vi.waitFor(() => expect(pane.screen()).toMatch(/^newmodel {2}ollama ✓/m), SCREEN_WAIT);
    expect(pane.screen()).not.toContain('Esc cancels');
    repl.ollama.script('Hello from the new model.');
    pane.type('hi', 'Enter');
    await repl.shows('Hello from the new model.');
    expect(repl.ollama.chatRequests.at(-1)?.model).toBe('newmodel');
  });

  it('Esc cancels a pull under way: the request is aborted and the model stays what it was', async () => {
    repl.ollama.offerPull('bigmodel', { hold: { afterLines: 3 } });
    pane.type('/model bigmodel', 'Enter');
    await repl.shows('pull? y/n ›');
    pane.type('y', 'Enter');
    await repl.shows('↓ bigmodel');
    const request = await vi.waitFor(() => {
      const [found] = pullsOf(repl, 'bigmodel');
      if (!found) throw new Error('the pull has not reached Ollama yet');
      return found;
    }, SCREEN_WAIT);
    expect(request.clientAborted).toBe(false);
    pane.type('', 'Escape');
    await repl.shows('Pull of bigmodel cancelled. The model is still newmodel. Ollama keeps what was downloaded');
    await vi.waitFor(() => expect(request.clientAborted).toBe(true), SCREEN_WAIT);
    expect(pane.screen()).not.toContain('↓ bigmodel');
    pane.type('model', 'Enter');
    await repl.shows('Model: newmodel');
  });

  it('y for a name the library does not have: one error line and where to look, the model unchanged', async () => {
    pane.type('/model qwen-nonexistent', 'Enter');
    await repl.shows('qwen-nonexistent is not pulled. Pull it now?');
    await repl.shows('pull? y/n ›');
    pane.type('y', 'Enter');
    await repl.shows("✗ no model named 'qwen-nonexistent' in the Ollama library");
    await repl.shows('Check the name at https://ollama.com/library');
    pane.type('model', 'Enter');
    await repl.shows('Model: newmodel');
  });

  it('y against an /api/pull that fails (HTTP 500 and a body): what failed is said, the model stays, the chat goes on', async () => {
    repl.ollama.offerPull('missing-model', { refuse: { status: 500, body: 'disk full on the Ollama host' } });
    pane.type('/model missing-model', 'Enter');
    await repl.shows('missing-model is not pulled. Pull it now?');
    await repl.shows('pull? y/n ›');
    pane.type('y', 'Enter');
    await repl.shows(`pulling missing-model through ${repl.ollama.url} failed: HTTP 500: disk full on the Ollama host`);
    expect(pullsOf(repl, 'missing-model')).toHaveLength(1);
    // What follows the failure: no advice to pull it again (the offer before it names the commands).
    const after = pane.screen().split('failed: HTTP 500: disk full on the Ollama host').at(-1) ?? '';
    expect(after).not.toMatch(/pull it with|mcp-chat pull/i);
    expect(pane.screen()).not.toContain('↓ missing-model');
    await vi.waitFor(() => expect(pane.screen()).toMatch(/^newmodel {2}ollama ✓/m), SCREEN_WAIT);
    repl.ollama.script('Still here.');
    pane.type('are you there?', 'Enter');
    await repl.shows('Still here.');
    expect(repl.ollama.chatRequests.at(-1)?.model).toBe('newmodel');
  });

  it('a line that is not y or n sets the offer aside and goes on as typed', async () => {
    pane.type('/model othermodel', 'Enter');
    await repl.shows('othermodel is not pulled. Pull it now?');
    await repl.shows('pull? y/n ›');
    pane.type('/model llama3.2', 'Enter');
    await repl.shows('Model switched to llama3.2.');
    expect(pullsOf(repl, 'othermodel')).toEqual([]);
    expect(pane.screen()).not.toContain('othermodel not pulled');
  });
});

describe.skipIf(!TmuxPane.available())('a REPL started with a model that is not pulled', () => {
  const repl = useReplSession({ config: NO_SERVERS, args: ['--model', 'fresh'] });

  it('says so, offers to pull it, and once pulled works with it', async () => {
    repl.ollama.offerPull('fresh', { layers: [1_500_000_000] });
    await repl.shows('model fresh is not available on');
    await repl.shows('fresh is not pulled. Pull it now? y/n');
    // The offer takes an answer once it has been on screen a moment (the prompt then says so).
    await repl.shows('pull? y/n ›');
    repl.pane.type('y', 'Enter');
    await repl.shows('Pulled fresh (1.5 GB in');
    await vi.waitFor(() => expect(repl.pane.screen()).toMatch(/^fresh {2}ollama ✓/m), SCREEN_WAIT);
    repl.ollama.script('Fresh answer.');
    repl.pane.type('hello', 'Enter');
    await repl.shows('Fresh answer.');
    expect(repl.ollama.chatRequests.at(-1)?.model).toBe('fresh');
  });
});
