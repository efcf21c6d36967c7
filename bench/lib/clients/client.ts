/**
 * What the peer rows need of a client: a name and version to print, and how to launch it on
 * one prompt. Each client is set up once (its own home, XDG directories and configuration,
 * pointing at the scripted model and the same MCP server) and then launched for every run,
 * as one user's machine would run it again and again.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Launch } from '../tree-run.js';

export type ClientId = 'mcp-chat' | 'codex' | 'opencode';

export interface Client {
  id: ClientId;
  /** How the row names it, with its version: `codex exec --oss (0.171.0)`. */
  label: string;
  launch(prompt: string): Launch;
}

/** What every client is given alike. */
export interface ClientWorld {
  /** The scripted model's base URL, `http://127.0.0.1:<port>`. */
  modelUrl: string;
  model: string;
  /** The one MCP server every client gets, over stdio. */
  server: { name: string; command: string; args: string[] };
  /** A directory of the client's own: its home and working directory go in it. */
  dir: string;
}

export interface ClientDirs {
  home: string;
  cwd: string;
  env: Record<string, string>;
}

/**
 * A home with its XDG directories and an empty working directory, and the environment a user's
 * shell would give the client there: nothing of the benchmark's own leaks in.
 */
export function clientDirs(world: ClientWorld): ClientDirs {
  const home = path.join(world.dir, 'home');
  const cwd = path.join(world.dir, 'work');
  const xdg = {
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_STATE_HOME: path.join(home, '.local/state'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
  };
  for (const dir of [cwd, ...Object.values(xdg)]) fs.mkdirSync(dir, { recursive: true });
  const env = {
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    ...xdg,
  };
  return { home, cwd, env };
}
