/**
 * Opens a URL the user agreed to open: with `$BROWSER` when it is set (as many tools honour
 * it), else the platform's opener. The URL is one argument, never a shell word: a hostile
 * URL cannot run anything. Only web pages are opened (`http:`, `https:`), whoever asks.
 */
import { spawn } from 'node:child_process';

/** What a browser is given. An opener hands any other scheme to whatever handles it on this machine. */
const WEB_SCHEMES = new Set(['http:', 'https:']);

// Security: `file:` opens what is on this machine, `javascript:` runs in the browser, `ssh:` and
// custom schemes start programs, and text that is not a URL (`-e …`) an opener may read as options.
/** Why `text` is not opened, in words for the user; nothing when it is a web page. */
export function urlRefusal(text: string): string | undefined {
  if (!URL.canParse(text)) return 'it is not a URL';
  const { protocol } = new URL(text);
  if (WEB_SCHEMES.has(protocol)) return undefined;
  return `only http and https URLs are opened, and this one is ${protocol} (another scheme can open a file on this machine, run a script or start a program)`;
}

function opener(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): { command: string; args: string[] } {
  if (env.BROWSER) return { command: env.BROWSER, args: [] };
  if (platform === 'darwin') return { command: 'open', args: [] };
  if (platform === 'win32') return { command: 'explorer.exe', args: [] };
  return { command: 'xdg-open', args: [] };
}

/**
 * Resolves once the opener has started; rejects, saying what to run, when it cannot be, and
 * saying why when the URL is not a web page's (no opener is started then).
 */
export function openUrl(url: string, env: NodeJS.ProcessEnv = process.env, platform = process.platform): Promise<void> {
  const refusal = urlRefusal(url);
  if (refusal) return Promise.reject(new Error(`refused to open ${url}: ${refusal}`));
  const { command, args } = opener(env, platform);
  return new Promise((resolve, reject) => {
    // The parsed form: what was checked is what the opener gets, starting with its scheme.
    const child = spawn(command, [...args, new URL(url).href], { stdio: 'ignore', detached: true });
    child.once('error', (error) =>
      reject(new Error(`could not open the URL with ${command} (${error.message}); open it yourself: ${url}`)),
    );
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
