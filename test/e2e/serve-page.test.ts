/**
 * The page `mcp-chat serve` serves, in a real browser: Debian's Chromium, headless, driven by
 * playwright-core, against the built CLI and the fake Ollama. Skipped, with the reason, where
 * /usr/bin/chromium is not installed (.ci/run installs it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOllama, TEXT_MODEL, type FakeOllama } from '../fakes/fake-ollama.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';
import { cleanEnv } from '../helpers/run-cli.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = fs.existsSync(CHROMIUM);
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

let workDir: string;
let ollama: FakeOllama;
let server: ServeProcess;
let browser: BrowserContext;
let page: Page;

beforeAll(async () => {
  if (!haveChromium) return;
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-serve-page-')));
  ollama = await startFakeOllama({ models: TEXT_MODEL });
  const env = cleanEnv({ HOME: workDir, OLLAMA_HOST: ollama.url, XDG_STATE_HOME: path.join(workDir, 'state') });
  server = await startServe([], env, workDir);
  browser = await chromium.launchPersistentContext(path.join(workDir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
  });
  page = await browser.newPage();
}, 60_000);
afterAll(async () => {
  if (!haveChromium) return;
  await browser.close();
  await server.stop();
  await ollama.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

async function say(text: string): Promise<void> {
  await page.fill('#input', text);
  await page.press('#input', 'Enter');
}

describe.skipIf(!haveChromium)(`the served page (needs ${CHROMIUM}: apt-get install chromium)`, () => {
  it('streams the answer as markdown, asks for approval with buttons, and completes the tool line when allowed', async () => {
    await page.goto(server.url.href);
    await page.waitForSelector('#state:text("ready")', CONDITION_WAIT);
    const call = {
      action: 'use_tool',
      server: 'file',
      tool: 'write_file',
      arguments: { path: 'page.txt', content: 'hi' },
    };
    ollama.script(JSON.stringify(call), 'Wrote **page.txt** for you.');
    await say('Write hi to page.txt');
    await page.click('.approval button[data-decision="allow"]', CONDITION_WAIT);
    await page.waitForSelector('.tool[data-state="complete"]:has-text("file.write_file")', CONDITION_WAIT);
    await page.waitForSelector('.assistant strong:text("page.txt")', CONDITION_WAIT);
    expect(await page.textContent('.user')).toBe('Write hi to page.txt');
    expect(await page.locator('.approval').count()).toBe(0);
    expect(fs.readFileSync(path.join(workDir, 'page.txt'), 'utf8')).toBe('hi');
  });

  it('html injection: HTML in the answer is shown as text, never run', async () => {
    ollama.script('<img src=x onerror="document.title=\'pwned\'"><script>document.title="pwned"</script> **safe**');
    await say('Say something hostile');
    await page.waitForSelector('.assistant strong:text("safe")', CONDITION_WAIT);
    expect(await page.locator('.assistant img, .assistant script').count()).toBe(0);
    expect(await page.locator('.assistant').last().textContent()).toContain('<img src=x');
    expect(await page.title()).toBe('mcp-chat');
  });

  it('reconnects to the same session after the server restarts, and lists it among the saved sessions', async () => {
    const before = new URL(page.url()).searchParams.get('session');
    expect(before).toBeTruthy();
    await server.stop();
    await page.waitForSelector('#state:text("reconnecting")', CONDITION_WAIT);
    const env = cleanEnv({ HOME: workDir, OLLAMA_HOST: ollama.url, XDG_STATE_HOME: path.join(workDir, 'state') });
    // The same port, so the open page finds the server again; the token comes from the file scripts read.
    const token = fs.readFileSync(path.join(workDir, 'state', 'mcp-chat', 'serve-token'), 'utf8').trim();
    server = await startServe(['--port', server.url.port, '--token', token], env, workDir);
    await page.waitForSelector('#state:text("ready")', CONDITION_WAIT);
    expect(new URL(page.url()).searchParams.get('session')).toBe(before);
    await page.waitForSelector('.user:text("Write hi to page.txt")', CONDITION_WAIT);
    await page.waitForSelector('#sessions li:text("Write hi to page.txt")', CONDITION_WAIT);
  });
});
