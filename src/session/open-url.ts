/**
 * Opens a URL the user agreed to open: with `$BROWSER` when it is set (as many tools honour
 * it), else the platform's opener. The URL is one argument, never a shell word: a hostile
 * URL cannot run anything.
 */
import { spawn } from 'node:child_process';

function opener(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): { command: string; args: string[] } {
  if (env.BROWSER) return { command: env.BROWSER, args: [] };
  if (platform === 'darwin') return { command: 'open', args: [] };
  if (platform === 'win32') return { command: 'explorer.exe', args: [] };
  return { command: 'xdg-open', args: [] };
}

/** Resolves once the opener has started; rejects, saying what to run, when it cannot be. */
export function openUrl(url: string, env: NodeJS.ProcessEnv = process.env, platform = process.platform): Promise<void> {
  const { command, args } = opener(env, platform);
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args, url], { stdio: 'ignore', detached: true });
    child.once('error', (error) =>
      reject(new Error(`could not open the URL with ${command} (${error.message}); open it yourself: ${url}`)),
    );
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
