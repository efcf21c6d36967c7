/**
 * The file server's tools through a real MCP client: in memory for behaviour, and one
 * real stdio child from the build for the entry point (`npx tsc -p tsconfig.json` first).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type FileServerOptions } from '../../servers/file/server.js';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { callText, connectInMemory } from '../helpers/in-memory-client.js';

const MAIN = path.join(REPO_ROOT, 'dist/servers/file/main.js');

let root: string;
const clients: Client[] = [];

async function connect(options: Partial<FileServerOptions> = {}): Promise<Client> {
  const client = await connectInMemory(createServer({ roots: [root], ...options }), 'file-test');
  clients.push(client);
  return client;
}

const call = callText;

beforeEach(async () => {
  root = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'file-server-')));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await fsp.rm(root, { recursive: true, force: true });
});

describe('file server tools', () => {
  it('lists five tools with annotations and descriptions that name the root', async () => {
    const { tools } = await (await connect()).listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual([
      'get_file_info',
      'list_directory',
      'read_file',
      'search_files',
      'write_file',
    ]);
    for (const name of ['read_file', 'list_directory', 'get_file_info', 'search_files']) {
      expect(byName[name]?.annotations).toMatchObject({ readOnlyHint: true });
    }
    expect(byName.write_file?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.read_file?.description).toContain(`relative to the root directory ${root}`);
    expect(byName.write_file?.inputSchema.required).toEqual(['path', 'content']);
    expect(byName.search_files?.inputSchema.required).toEqual(['pattern']);
  });

  it('read_file returns a file by relative and by absolute path', async () => {
    await fsp.mkdir(path.join(root, 'src'));
    await fsp.writeFile(path.join(root, 'src', 'a.txt'), 'hello\nworld\n');
    const client = await connect();
    expect(await call(client, 'read_file', { path: 'src/a.txt' })).toEqual({ isError: false, text: 'hello\nworld\n' });
    expect(await call(client, 'read_file', { path: path.join(root, 'src/a.txt') })).toEqual({
      isError: false,
      text: 'hello\nworld\n',
    });
  });

  it('read_file caps large files and says it truncated and how big the file is', async () => {
    await fsp.writeFile(path.join(root, 'big.txt'), 'x'.repeat(5000));
    const result = await call(await connect({ maxReadBytes: 1024 }), 'read_file', { path: 'big.txt' });
    expect(result.isError).toBe(false);
    expect(result.text.startsWith(`${'x'.repeat(1024)}\n`)).toBe(true);
    expect(result.text).not.toContain('x'.repeat(1025));
    expect(result.text).toContain('[truncated: showed the first 1024 of 5000 bytes of big.txt]');
  });

  it('read_file applies the 256 KiB default cap', async () => {
    await fsp.writeFile(path.join(root, 'huge.log'), 'y'.repeat(300 * 1024));
    const result = await call(await connect(), 'read_file', { path: 'huge.log' });
    expect(result.text).toContain('[truncated: showed the first 262144 of 307200 bytes of huge.log]');
  });

  it('read_file does not split a multi-byte character at the cap', async () => {
    await fsp.writeFile(path.join(root, 'accents.txt'), 'é'.repeat(100));
    const result = await call(await connect({ maxReadBytes: 11 }), 'read_file', { path: 'accents.txt' });
    expect(result.text.split('\n')[0]).toBe('ééééé');
    expect(result.text).not.toContain('\uFFFD');
  });

  it('read_file reports binary files instead of dumping them', async () => {
    await fsp.writeFile(path.join(root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0xff]));
    const result = await call(await connect(), 'read_file', { path: 'image.png' });
    expect(result).toEqual({ isError: false, text: 'image.png is a binary file (8 bytes); its content is not shown.' });
  });

  it('read_file explains missing files, directories and special files', async () => {
    await fsp.mkdir(path.join(root, 'dir'));
    const client = await connect();
    expect(await call(client, 'read_file', { path: 'nope.txt' })).toEqual({
      isError: true,
      text: 'No such file or directory: nope.txt',
    });
    const dir = await call(client, 'read_file', { path: 'dir' });
    expect(dir).toMatchObject({ isError: true });
    expect(dir.text).toContain('use list_directory');
    const fifo = spawnSync('mkfifo', [path.join(root, 'pipe')]);
    if (fifo.status === 0) {
      // Opening a FIFO would block forever; the server must refuse before opening it.
      expect(await call(client, 'read_file', { path: 'pipe' })).toEqual({
        isError: true,
        text: 'pipe is not a regular file',
      });
    }
  });

  it('write_file creates a file and its missing parent directories inside the root', async () => {
    const result = await call(await connect(), 'write_file', { path: 'new/deep/note.md', content: '# note\n' });
    expect(result).toEqual({ isError: false, text: 'Created new/deep/note.md (7 bytes written)' });
    expect(fs.readFileSync(path.join(root, 'new/deep/note.md'), 'utf8')).toBe('# note\n');
  });

  it('write_file is atomic: content replaced whole, mode kept, no temp file left behind', async () => {
    const target = path.join(root, 'config.txt');
    await fsp.writeFile(target, 'old content that is much longer than the new one\n'.repeat(50));
    await fsp.chmod(target, 0o600);
    const result = await call(await connect(), 'write_file', { path: 'config.txt', content: 'new' });
    expect(result).toEqual({ isError: false, text: 'Replaced config.txt (3 bytes written)' });
    expect(fs.readFileSync(target, 'utf8')).toBe('new');
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(root)).toEqual(['config.txt']);
  });

  it('write_file refuses to replace a directory', async () => {
    await fsp.mkdir(path.join(root, 'dir'));
    const result = await call(await connect(), 'write_file', { path: 'dir', content: 'x' });
    expect(result).toEqual({ isError: true, text: 'dir exists and is not a regular file; refusing to replace it' });
    expect(fs.statSync(path.join(root, 'dir')).isDirectory()).toBe(true);
  });

  it('list_directory shows sorted [DIR] and [FILE] entries', async () => {
    await fsp.mkdir(path.join(root, 'src'));
    await fsp.writeFile(path.join(root, 'b.txt'), '');
    await fsp.writeFile(path.join(root, 'a.txt'), '');
    await fsp.mkdir(path.join(root, 'empty'));
    const client = await connect();
    expect(await call(client, 'list_directory', { path: '.' })).toEqual({
      isError: false,
      text: '[FILE] a.txt\n[FILE] b.txt\n[DIR] empty\n[DIR] src',
    });
    expect(await call(client, 'list_directory', { path: root })).toMatchObject({ isError: false });
    expect((await call(client, 'list_directory', { path: 'empty' })).text).toBe('empty is an empty directory');
    expect(await call(client, 'list_directory', { path: 'a.txt' })).toMatchObject({ isError: true });
  });

  it('get_file_info gives type, size, modified time and permissions', async () => {
    const file = path.join(root, 'data.csv');
    await fsp.writeFile(file, 'a,b\n1,2\n');
    await fsp.chmod(file, 0o644);
    const modified = new Date('2024-05-06T07:08:09.000Z');
    await fsp.utimes(file, modified, modified);
    const client = await connect();
    const info = await call(client, 'get_file_info', { path: 'data.csv' });
    expect(info.isError).toBe(false);
    expect(info.text).toContain('path: data.csv');
    expect(info.text).toContain('type: file');
    expect(info.text).toContain('size: 8 bytes');
    expect(info.text).toContain('modified: 2024-05-06T07:08:09.000Z');
    expect(info.text).toContain('permissions: rw-r--r-- (644)');
    expect((await call(client, 'get_file_info', { path: '.' })).text).toContain('type: directory');
  });

  it('list_directory and search_files given a file say so; get_file_info describes a FIFO', async () => {
    await fsp.writeFile(path.join(root, 'a.txt'), 'a');
    const client = await connect();
    expect(await call(client, 'list_directory', { path: 'a.txt' })).toEqual({
      isError: true,
      text: 'a.txt is not a directory; use read_file or get_file_info for files',
    });
    expect(await call(client, 'search_files', { pattern: '*', path: 'a.txt' })).toEqual({
      isError: true,
      text: 'a.txt is not a directory; search_files searches under a directory',
    });
    if (spawnSync('mkfifo', [path.join(root, 'pipe')]).status === 0) {
      expect((await call(client, 'get_file_info', { path: 'pipe' })).text).toContain('type: other');
    }
  });

  it('search_files matches substrings, globs and path globs, under a path or the root', async () => {
    for (const dir of ['src/chat', 'test/unit']) await fsp.mkdir(path.join(root, dir), { recursive: true });
    for (const file of ['src/chat/orchestrator.ts', 'src/config.ts', 'test/unit/config.test.ts', 'README.md']) {
      await fsp.writeFile(path.join(root, file), '');
    }
    const client = await connect();
    const search = async (args: Record<string, unknown>): Promise<string> =>
      (await call(client, 'search_files', args)).text;
    expect(await search({ pattern: 'CONFIG' })).toBe('[FILE] src/config.ts\n[FILE] test/unit/config.test.ts');
    expect(await search({ pattern: '*.ts', path: 'src' })).toBe(
      '[FILE] src/config.ts\n[FILE] src/chat/orchestrator.ts',
    );
    expect(await search({ pattern: 'test/**/*.test.ts' })).toBe('[FILE] test/unit/config.test.ts');
    expect(await search({ pattern: '*.{md,txt}' })).toBe('[FILE] README.md');
    expect(await search({ pattern: 'chat' })).toBe('[DIR] src/chat');
    expect(await search({ pattern: 'nothing-like-this' })).toBe('No matches for "nothing-like-this" under .');
  });

  it('search_files understands ?, [classes], ** in the middle and braces next to stars', async () => {
    await fsp.mkdir(path.join(root, 'src/a/b'), { recursive: true });
    for (const file of ['src/a/b/deep.ts', 'src/top.ts', 'v1.txt', 'v2.txt', 'vx.txt', 'notes.md', 'notes.mdx']) {
      await fsp.writeFile(path.join(root, file), '');
    }
    const client = await connect();
    const search = async (pattern: string): Promise<string> => (await call(client, 'search_files', { pattern })).text;
    expect(await search('v?.txt')).toBe('[FILE] v1.txt\n[FILE] v2.txt\n[FILE] vx.txt');
    expect(await search('v[0-9].txt')).toBe('[FILE] v1.txt\n[FILE] v2.txt');
    expect(await search('v[!0-9].txt')).toBe('[FILE] vx.txt');
    expect(await search('src/**/*.ts')).toBe('[FILE] src/top.ts\n[FILE] src/a/b/deep.ts');
    expect(await search('src/**/b/*')).toBe('[FILE] src/a/b/deep.ts');
    expect(await search('*.{md,mdx}')).toBe('[FILE] notes.md\n[FILE] notes.mdx');
    expect(await search('*{.md,1.txt}')).toBe('[FILE] notes.md\n[FILE] v1.txt');
    expect((await call(client, 'search_files', { pattern: '' })).text).toBe(
      'Invalid pattern: empty (try "*.ts" or part of a file name)',
    );
  });

  it('search_files bounds its result count and says so', async () => {
    await Promise.all(Array.from({ length: 230 }, (_, i) => fsp.writeFile(path.join(root, `f${i}.txt`), '')));
    const lines = (await call(await connect(), 'search_files', { pattern: '*.txt' })).text.split('\n');
    expect(lines).toHaveLength(201);
    expect(lines.at(-1)).toContain('stopped early: at most 200 matches');
  });

  it('with several roots, relative paths start at the first and absolute paths reach the others', async () => {
    const second = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'file-server-second-')));
    try {
      await fsp.writeFile(path.join(root, 'one.txt'), 'first');
      await fsp.writeFile(path.join(second, 'two.txt'), 'second');
      const client = await connect({ roots: [root, second] });
      expect((await call(client, 'read_file', { path: 'one.txt' })).text).toBe('first');
      expect((await call(client, 'read_file', { path: path.join(second, 'two.txt') })).text).toBe('second');
      expect((await call(client, 'read_file', { path: 'two.txt' })).isError).toBe(true);
      expect((await call(client, 'write_file', { path: path.join(second, 'new.txt'), content: 'x' })).text).toBe(
        `Created ${path.join(second, 'new.txt')} (1 byte written)`,
      );
    } finally {
      await fsp.rm(second, { recursive: true, force: true });
    }
  });

  it('createServer refuses a root that does not exist', () => {
    expect(() => createServer({ roots: [path.join(root, 'missing')] })).toThrow(/root directory does not exist/);
  });
});

describe('file server over stdio (built entry)', () => {
  it('serves tools to a real client from a child process', async () => {
    expect(fs.existsSync(MAIN), 'build first: npx tsc -p tsconfig.json').toBe(true);
    await fsp.writeFile(path.join(root, 'hello.txt'), 'from disk');
    const transport = new StdioClientTransport({ command: process.execPath, args: [MAIN, root], stderr: 'pipe' });
    const client = new Client({ name: 'file-stdio-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('search_files');
    expect(await call(client, 'read_file', { path: 'hello.txt' })).toEqual({ isError: false, text: 'from disk' });
    expect((await call(client, 'write_file', { path: 'out.txt', content: 'written' })).isError).toBe(false);
    expect(fs.readFileSync(path.join(root, 'out.txt'), 'utf8')).toBe('written');
    expect((await call(client, 'read_file', { path: '../../etc/passwd' })).isError).toBe(true);
  });

  it('exits with code 2 and a message on stderr for a bad root', () => {
    const missing = path.join(root, 'does-not-exist');
    const child = spawnSync(process.execPath, [MAIN, missing], { encoding: 'utf8', input: '' });
    expect(child.status).toBe(2);
    expect(child.stderr).toContain(`root directory does not exist or is not accessible: ${missing}`);
    expect(child.stdout).toBe('');
  });
});
