/**
 * The file server started without a root argument takes its roots from the MCP client
 * (roots/list, again on roots/list_changed), through the built server process over stdio
 * (`npm run build` first). A root from the client is opened and checked like one from the
 * command line, so the same escapes get the same refusals.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callText } from '../helpers/in-memory-client.js';
import { connectBuiltServer } from '../helpers/stdio-client.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

const symlinksWork = process.platform !== 'win32';
const NO_ROOT_HINT =
  'To give it one, put a directory path after main.js in the server\'s "args" in mcp_config.json, ' +
  'or have the MCP client offer a directory as a root.';

let base: string;
/** Two directories a client can offer, and one no root includes. */
let first: string;
let second: string;
let outside: string;
const clients: Client[] = [];

/** A client that declares roots and answers roots/list with whatever `offer` last set. */
interface RootsClient {
  client: Client;
  /** Changes the offered roots and tells the server (roots/list_changed). */
  offer(uris: string[]): Promise<void>;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** How many times the server asked for the roots. */
  asked(): number;
}

async function connectWithRoots(uris: string[], args: string[] = []): Promise<RootsClient> {
  let offered = uris;
  let asked = 0;
  const client = await connectBuiltServer('file', args, 'client-roots-test', {
    capabilities: { roots: { listChanged: true } },
    beforeConnect: (c) =>
      c.setRequestHandler(ListRootsRequestSchema, () => {
        asked++;
        return { roots: offered.map((uri) => ({ uri, name: path.basename(uri) })) };
      }),
    stderr: 'pipe',
  });
  clients.push(client);
  let stderr = '';
  (client.transport as StdioClientTransport).stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return {
    client,
    offer: async (next) => {
      offered = next;
      await client.sendRootsListChanged();
    },
    stderr: () => stderr,
    asked: () => asked,
  };
}

async function connectWithArgs(args: string[], cwd?: string): Promise<Client> {
  const client = await connectBuiltServer('file', args, 'cli-roots-test', { cwd });
  clients.push(client);
  return client;
}

const uri = (dir: string): string => pathToFileURL(dir).href;

/** Retries `check` until it passes: the server takes new roots when it has asked for them, not at once. */
const eventually = <T>(check: () => T | Promise<T>): Promise<T> =>
  vi.waitFor(check, { ...CONDITION_WAIT, interval: 50 });

/** Each call's outcome, for comparing two servers answer for answer. */
async function outcomes(client: Client, calls: ReadonlyArray<[string, Record<string, unknown>]>) {
  const results = [];
  for (const [tool, args] of calls) results.push({ tool, args, ...(await callText(client, tool, args)) });
  return results;
}

beforeEach(async () => {
  base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'file-client-roots-')));
  [first, second, outside] = ['first', 'second', 'outside'].map((name) => path.join(base, name)) as [
    string,
    string,
    string,
  ];
  for (const dir of [first, second, outside]) await fsp.mkdir(path.join(dir, 'sub'), { recursive: true });
  await fsp.writeFile(path.join(first, 'a.txt'), 'in the first root');
  await fsp.writeFile(path.join(second, 'b.txt'), 'in the second root');
  await fsp.writeFile(path.join(outside, 'secret.txt'), 'SECRET');
  if (symlinksWork) await fsp.symlink(outside, path.join(first, 'out-link'));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await fsp.rm(base, { recursive: true, force: true });
});

describe('file server roots from the MCP client', () => {
  it('a directory the client offers is the root: files there are read and written', async () => {
    const { client } = await connectWithRoots([uri(first)]);
    expect(await callText(client, 'read_file', { path: 'a.txt' })).toEqual({
      isError: false,
      text: 'in the first root',
    });
    expect(await callText(client, 'read_file', { path: path.join(first, 'a.txt') })).toEqual({
      isError: false,
      text: 'in the first root',
    });
    expect((await callText(client, 'write_file', { path: 'sub/new.txt', content: 'written' })).isError).toBe(false);
    expect(fs.readFileSync(path.join(first, 'sub', 'new.txt'), 'utf8')).toBe('written');
  });

  it.skipIf(!symlinksWork)(
    'escapes from a client root (.., absolute paths, a symlink out) are refused exactly as from a command-line root',
    async () => {
      const escapes: Array<[string, Record<string, unknown>]> = [
        ['read_file', { path: '../outside/secret.txt' }],
        ['read_file', { path: 'sub/../../outside/secret.txt' }],
        ['read_file', { path: path.join(outside, 'secret.txt') }],
        ['read_file', { path: 'out-link/secret.txt' }],
        ['list_directory', { path: 'out-link' }],
        ['write_file', { path: 'out-link/planted.txt', content: 'x' }],
        ['search_files', { pattern: '*', path: '..' }],
      ];
      const fromClient = await outcomes((await connectWithRoots([uri(first)])).client, escapes);
      const fromArgs = await outcomes(await connectWithArgs([first]), escapes);
      expect(fromClient).toEqual(fromArgs);
      for (const outcome of fromClient) expect(outcome, JSON.stringify(outcome)).toMatchObject({ isError: true });
      expect(fs.readdirSync(outside).sort()).toEqual(['secret.txt', 'sub']);
    },
  );

  it('roots/list_changed moves the sandbox: the new root is served and the old one is refused', async () => {
    const roots = await connectWithRoots([uri(first)]);
    expect((await callText(roots.client, 'read_file', { path: 'a.txt' })).isError).toBe(false);
    await roots.offer([uri(second)]);
    await eventually(async () =>
      expect(await callText(roots.client, 'read_file', { path: 'b.txt' })).toEqual({
        isError: false,
        text: 'in the second root',
      }),
    );
    expect(await callText(roots.client, 'read_file', { path: 'a.txt' })).toEqual({
      isError: true,
      text: 'No such file or directory: a.txt',
    });
    const oldFile = path.join(first, 'a.txt');
    expect(await callText(roots.client, 'read_file', { path: oldFile })).toEqual({
      isError: true,
      text: `Access denied: path outside allowed roots: ${oldFile} (allowed: ${second})`,
    });
  });

  it("tools/list names the client's first root once it is known, and the new one after roots/list_changed", async () => {
    const roots = await connectWithRoots([uri(first), uri(second)]);
    const described = async (): Promise<{ description: string; pathArg: string }> => {
      const tool = (await roots.client.listTools()).tools.find((each) => each.name === 'read_file');
      const pathArg = (tool?.inputSchema.properties?.path ?? {}) as { description?: string };
      return { description: tool?.description ?? '', pathArg: pathArg.description ?? '' };
    };
    await eventually(async () =>
      expect(await described()).toEqual({
        description: expect.stringContaining(
          `Paths are relative to the root directory ${first}; absolute paths are accepted only inside the allowed roots (${first}, ${second}).`,
        ),
        pathArg: expect.stringContaining(`relative to the root directory ${first};`),
      }),
    );
    await roots.offer([uri(second)]);
    await eventually(async () =>
      expect((await described()).description).toContain(
        `relative to the root directory ${second}; absolute paths are accepted only inside the allowed roots (${second}).`,
      ),
    );
  });

  it('roots the client offers that are not a file:// URI of a directory are ignored with a warning', async () => {
    const file = path.join(base, 'plain.txt');
    await fsp.writeFile(file, 'not a directory');
    const offered = [
      'https://example.com/docs',
      'not a uri',
      'file://fileserver/share',
      uri(file),
      uri(path.join(base, 'missing')),
      uri(first),
    ];
    const roots = await connectWithRoots(offered);
    expect(await callText(roots.client, 'list_directory', { path: '.' })).toEqual({
      isError: false,
      text: expect.stringContaining('[FILE] a.txt'),
    });
    await eventually(() => {
      const stderr = roots.stderr();
      expect(stderr).toContain("ignoring the client's root https://example.com/docs: not a file:// URI");
      expect(stderr).toContain("ignoring the client's root not a uri: not a URI");
      expect(stderr).toContain("ignoring the client's root file://fileserver/share: not a local path");
      expect(stderr).toContain(`ignoring the client's root ${uri(file)}: root is not a directory: ${file}`);
      expect(stderr).toContain(`root directory does not exist or is not accessible: ${path.join(base, 'missing')}`);
      expect(stderr).toContain(`root directories from the client: ${first}`);
    });
  });

  it('when none of the roots the client offers is usable, every tool says why and how to give one', async () => {
    const roots = await connectWithRoots(['https://example.com/docs', uri(path.join(base, 'missing'))]);
    const expected = {
      isError: true,
      text:
        'The file server has no root directory yet: none of the roots the MCP client offers is a usable directory ' +
        `(https://example.com/docs: not a file:// URI; ${uri(path.join(base, 'missing'))}: root directory does not ` +
        `exist or is not accessible: ${path.join(base, 'missing')}). ${NO_ROOT_HINT}`,
    };
    expect(await callText(roots.client, 'read_file', { path: 'a.txt' })).toEqual(expected);
    expect(await callText(roots.client, 'search_files', { pattern: '*' })).toEqual(expected);
    // A usable root offered later is taken.
    await roots.offer([uri(first)]);
    await eventually(async () =>
      expect((await callText(roots.client, 'read_file', { path: 'a.txt' })).isError).toBe(false),
    );
  });

  it.skipIf(!symlinksWork)(
    'a root the client offers that is a symlink to a directory elsewhere is resolved and checked like a command-line root',
    async () => {
      const link = path.join(base, 'link-to-first');
      await fsp.symlink(first, link);
      const calls: Array<[string, Record<string, unknown>]> = [
        ['read_file', { path: 'a.txt' }],
        ['read_file', { path: path.join(link, 'a.txt') }],
        ['read_file', { path: path.join(first, 'a.txt') }],
        ['get_file_info', { path: '.' }],
        ['read_file', { path: 'out-link/secret.txt' }],
        ['read_file', { path: path.join(link, 'out-link', 'secret.txt') }],
        ['read_file', { path: '../outside/secret.txt' }],
      ];
      const fromClient = await outcomes((await connectWithRoots([uri(link)])).client, calls);
      const fromArgs = await outcomes(await connectWithArgs([link]), calls);
      expect(fromClient).toEqual(fromArgs);
      expect(fromClient.map((outcome) => outcome.isError)).toEqual([false, false, false, false, true, true, true]);
    },
  );

  it.skipIf(!symlinksWork)('a client root that is a symlink to a file, or a dangling one, is ignored', async () => {
    const toFile = path.join(base, 'link-to-file');
    const dangling = path.join(base, 'dangling');
    await fsp.symlink(path.join(first, 'a.txt'), toFile);
    await fsp.symlink(path.join(base, 'gone'), dangling);
    const roots = await connectWithRoots([uri(toFile), uri(dangling)]);
    const result = await callText(roots.client, 'read_file', { path: 'a.txt' });
    expect(result.isError).toBe(true);
    expect(result.text).toContain(`${uri(toFile)}: root is not a directory: ${toFile}`);
    expect(result.text).toContain(`${uri(dangling)}: root directory does not exist or is not accessible: ${dangling}`);
  });

  it('with a root argument the client is not asked for its roots, and its roots grant nothing', async () => {
    const roots = await connectWithRoots([uri(second)], [first]);
    expect((await callText(roots.client, 'read_file', { path: 'a.txt' })).isError).toBe(false);
    expect((await callText(roots.client, 'read_file', { path: path.join(second, 'b.txt') })).isError).toBe(true);
    expect(roots.asked()).toBe(0);
  });

  it('a client that fails roots/list: every tool says asking for the roots failed', async () => {
    const client = await connectBuiltServer('file', [], 'failing-roots-test', {
      capabilities: { roots: {} },
      beforeConnect: (c) =>
        c.setRequestHandler(ListRootsRequestSchema, () => {
          throw new Error('roots are broken');
        }),
    });
    clients.push(client);
    expect(await callText(client, 'read_file', { path: 'a.txt' })).toEqual({
      isError: true,
      text:
        'The file server has no root directory yet: asking the client for its roots failed ' +
        `(MCP error -32603: roots are broken). ${NO_ROOT_HINT}`,
    });
  });
});

describe('file server with neither a root argument nor client roots', () => {
  it('every tool says it has no root directory yet and how to give one; the working directory is not served', async () => {
    await fsp.writeFile(path.join(first, 'here.txt'), 'the working directory');
    const client = await connectWithArgs([], first);
    const expected = {
      isError: true,
      text:
        'The file server has no root directory yet: it was started without a directory argument, and the MCP ' +
        `client does not offer roots. ${NO_ROOT_HINT}`,
    };
    for (const [tool, args] of [
      ['read_file', { path: 'here.txt' }],
      ['write_file', { path: 'new.txt', content: 'x' }],
      ['list_directory', { path: '.' }],
      ['get_file_info', { path: 'here.txt' }],
      ['search_files', { pattern: '*' }],
    ] as const) {
      expect(await callText(client, tool, args), tool).toEqual(expected);
    }
    expect(fs.existsSync(path.join(first, 'new.txt'))).toBe(false);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(5);
    for (const tool of tools) {
      expect(tool.description).toContain('the first of the directories the MCP client offers as roots');
      expect(tool.description).not.toContain(first);
    }
  });
});
