/**
 * `mcp-chat pull <model>`: the built binary against the fake Ollama. A script gets one line
 * (or JSON) and exit 0, one error line and exit 1, and no progress drawing when stderr is not a
 * terminal; on a terminal (tmux) the progress line is drawn; Ctrl+C aborts the request, exit 130.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeOllama, type RecordedRequest, startFakeOllama } from '../fakes/fake-ollama.js';
import { CLI, cleanEnv, runCli } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { SCREEN_WAIT } from '../helpers/repl-session.js';
import { TmuxPane } from '../helpers/tmux.js';

let ollama: FakeOllama;
const env = (): Record<string, string> => cleanEnv({ OLLAMA_HOST: ollama.url });

beforeAll(async () => {
  ollama = await startFakeOllama({ models: [{ name: 'llama3.2' }] });
});
afterAll(async () => {
  await ollama.close();
});

/** The fake's record of the pull of `name`, once it has arrived. */
async function pullRequestOf(name: string): Promise<RecordedRequest> {
  return vi.waitFor(() => {
    const found = ollama.requests.find(
      (request) => request.path === '/api/pull' && (request.body as { name?: string }).name === name,
    );
    if (!found) throw new Error(`no pull of ${name} yet`);
    return found;
  }, SCREEN_WAIT);
}

async function listed(): Promise<string[]> {
  const reply = (await (await fetch(`${ollama.url}/api/tags`)).json()) as { models: Array<{ name: string }> };
  return reply.models.map((model) => model.name);
}

describe('mcp-chat pull, for scripts', () => {
  it('pulls the model: one line on stdout, nothing drawn on a stderr that is not a terminal, exit 0', async () => {
    ollama.offerPull('qwen3', { layers: [4_683_087_332, 11_338, 487], steps: 20 });
    const result = await runCli(['pull', 'qwen3'], { env: env() });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^Pulled qwen3 \(4\.7 GB in [^)]+\)\.\n$/);
    expect(await listed()).toContain('qwen3:latest');
  });

  it('--json prints one object', async () => {
    ollama.offerPull('phi4-mini', { layers: [2_491_876_774, 1_000] });
    const result = await runCli(['pull', 'phi4-mini', '--json'], { env: env() });
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({ model: 'phi4-mini', status: 'success', bytes: 2_491_877_774 });
    expect(typeof printed.durationMs).toBe('number');
  });

  it('a name the library does not have: one error line and what to do, exit 1', async () => {
    const result = await runCli(['pull', 'qwen-nonexistent'], { env: env() });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "error: no model named 'qwen-nonexistent' in the Ollama library\nCheck the name at https://ollama.com/library\n",
    });
    expect(await listed()).not.toContain('qwen-nonexistent:latest');
  });

  it('a server whose /api/pull fails says what failed (status and body), never to pull it again', async () => {
    ollama.offerPull('granite3', { refuse: { status: 403, body: 'pulls are turned off on this server' } });
    const result = await runCli(['pull', 'granite3'], { env: env() });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: pulling granite3 through ${ollama.url} failed: HTTP 403: pulls are turned off on this server\n`,
    });
  });

  it('--json prints one error object on stdout when the name is not in the library, exit 1', async () => {
    const result = await runCli(['pull', 'qwen-nonexistent', '--json'], { env: env() });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      model: 'qwen-nonexistent',
      status: 'error',
      error: { type: 'model-missing', message: "no model named 'qwen-nonexistent' in the Ollama library" },
    });
    expect(result.stderr).toContain('ollama.com/library');
  });

  it('--json prints one error object on stdout when Ollama is unreachable, exit 1', async () => {
    const gone = await startFakeOllama();
    await gone.close();
    const result = await runCli(['pull', 'qwen3', '--json'], { env: cleanEnv({ OLLAMA_HOST: gone.url }) });
    expect(result.code).toBe(1);
    const printed = JSON.parse(result.stdout) as { status: string; error: { type: string; message: string } };
    expect(printed).toMatchObject({ model: 'qwen3', status: 'error', error: { type: 'unreachable' } });
    expect(printed.error.message).toContain(gone.url);
  });

  it('Ctrl+C aborts the request and exits 130, the model not pulled', async () => {
    ollama.offerPull('gemma3', { hold: { afterLines: 4 } });
    const child = spawn(process.execPath, [CLI, 'pull', 'gemma3'], { cwd: REPO_ROOT, env: env() });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // The request is in (the handler is set before it is sent), the download held after its fourth line.
    const request = await pullRequestOf('gemma3');
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toBe(
      'Pull of gemma3 cancelled. Ollama keeps what was downloaded: pulling the model again resumes.\n',
    );
    expect(request.clientAborted).toBe(true);
    expect(await listed()).not.toContain('gemma3:latest');
  });
});

describe.skipIf(!TmuxPane.available())('mcp-chat pull on a terminal', () => {
  const pane = new TmuxPane();
  let workDir = '';
  beforeAll(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-pull-tty-'));
  });
  afterAll(() => {
    pane.kill();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('draws the progress on stderr, then the closing line', async () => {
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    ollama.offerPull('mistral', { layers: [4_000_000_000, 500], steps: 10, hold: { afterLines: 6, until: released } });
    const script = `${process.execPath} ${CLI} pull mistral; echo "exit=$?"`;
    pane.start(['bash', '-c', script], { cwd: REPO_ROOT, env: { ...env(), TERM: 'xterm-256color' }, width: 100 });
    // Held early in the first layer: the bar, the share and the bytes of the total (the size of the first layer).
    await pane.waitForScreen(/mistral {2}█*░+ {2}\d+% {2}[\d.]+ [kMG]?B \/ 4\.0 GB/);
    release();
    await pane.waitForScreen(/Pulled mistral \(4\.0 GB in [^)]+\)\.\nexit=0/);
    expect(pane.screen()).not.toContain('░');
    expect(await listed()).toContain('mistral:latest');
  });

  it('Ctrl+C in the terminal cancels, says the download resumes later, exit 130', async () => {
    ollama.offerPull('llava', { hold: { afterLines: 3 } });
    pane.kill();
    pane.start(['bash', '-c', `${process.execPath} ${CLI} pull llava; echo "exit=$?"`], {
      cwd: REPO_ROOT,
      env: { ...env(), TERM: 'xterm-256color' },
    });
    await pane.waitForScreen(/llava {2}█*░+ {2}\d+%/);
    pane.type('', 'C-c');
    await pane.waitForScreen(/Pull of llava cancelled\. Ollama keeps what was downloaded[^\n]*\n(?:[^\n]*\n)?exit=130/);
  });
});
