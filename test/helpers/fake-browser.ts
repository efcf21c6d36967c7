/**
 * A stand-in for the user's browser: a script set as `$BROWSER` that notes each URL it is handed
 * in a file, so a test can see whether, and what, the REPL opened.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { vi } from 'vitest';

export interface FakeBrowser {
  /** The file each opened URL is appended to, a line each; absent until one is opened. */
  opened: string;
  /** Writes the script and sets `$BROWSER` to it (in a `beforeAll`). */
  install(): void;
  /** Removes its folder (in an `afterAll`). */
  remove(): void;
}

export function fakeBrowser(): FakeBrowser {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-browser-')));
  const opened = path.join(dir, 'opened.txt');
  return {
    opened,
    install: () => {
      const script = path.join(dir, 'browser.sh');
      fs.writeFileSync(script, `#!/bin/sh\necho "$1" >> '${opened}'\n`, { mode: 0o755 });
      vi.stubEnv('BROWSER', script);
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
