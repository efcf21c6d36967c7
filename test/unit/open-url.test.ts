/**
 * What `openUrl` hands a browser, with a stand-in `$BROWSER` that records what it is given:
 * web pages only. Every other scheme, and text that is not a URL, is refused with the reason,
 * and the stand-in never runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openUrl } from '../../src/session/open-url.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-open-url-')));
const opened = path.join(dir, 'opened.txt');
const browser = path.join(dir, 'browser.sh');
fs.writeFileSync(browser, `#!/bin/sh\necho "$1" >> '${opened}'\n`, { mode: 0o755 });
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const env = { BROWSER: browser };
/** One line per run of the stand-in; sorted, since the two browsers of one test may finish in either order. */
const openedUrls = (): string[] =>
  fs.existsSync(opened) ? fs.readFileSync(opened, 'utf8').split('\n').filter(Boolean).sort() : [];

describe('openUrl', () => {
  it.each([
    ['file:///etc/passwd', 'only http and https URLs are opened, and this one is file:'],
    ['javascript:alert(document.cookie)', 'this one is javascript:'],
    ['ssh://attacker.example/', 'this one is ssh:'],
    ['vscode://evil.extension/run', 'this one is vscode:'],
    ['data:text/html,<script>alert(1)</script>', 'this one is data:'],
    ['-e https://example.com/', 'it is not a URL'],
    ['--new-window', 'it is not a URL'],
  ])('URL scheme: %s is refused, saying why, and the browser never runs', async (url, why) => {
    const refusal = openUrl(url, env);
    await expect(refusal).rejects.toThrow(`refused to open ${url}: `);
    await expect(refusal).rejects.toThrow(why);
    expect(openedUrls()).toEqual([]);
  });

  it('an http or https URL is given to the browser as one argument, as parsed', async () => {
    await openUrl('https://example.com/authorize?step=1', env);
    await openUrl('HTTP://Example.com', env);
    await vi.waitFor(
      () => expect(openedUrls()).toEqual(['http://example.com/', 'https://example.com/authorize?step=1']),
      CONDITION_WAIT,
    );
  });
});
