/**
 * Rug pulls through the real binary and a real stdio server whose tools change between runs (and
 * one that adds a tool mid-session): what the user accepted is pinned; a tool new or changed since
 * is not offered to the model and its call is refused, in `ask` and `call`, with one line on
 * stderr per server, until `tools --accept` (or `--accept-tool-changes`, for one run).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import {
  dictionary,
  INJECTED,
  LOOKUP,
  LOOKUP_REWRITTEN,
  LOOKUP_WIDER,
  WIPE,
  type Dictionary,
  type ShiftingSpec,
} from '../helpers/shifting-server.js';
import { textCall } from '../helpers/turns.js';

let dict: Dictionary;
let ollama: FakeOllama;

beforeEach(async () => {
  dict = dictionary();
  ollama = await startFakeOllama({ models: [{ name: 'llama3.2', capabilities: ['completion'] }] });
});
afterEach(async () => {
  await ollama.close();
  dict.remove();
});

function cli(args: string[], config = dict.config): Promise<CliResult> {
  return runCli([...args, '--config', config], { cwd: dict.dir, env: dict.env({ OLLAMA_HOST: ollama.url }) });
}

/** The first run pins the server as it is (nothing said); from the next start it offers `next`. */
async function pinThenOffer(first: ShiftingSpec, next: ShiftingSpec): Promise<void> {
  dict.offer(first);
  const pinned = await cli(['tools']);
  expect(pinned.code).toBe(0);
  expect(pinned.stderr).toBe('');
  dict.offer(next);
}

interface AskedCall {
  tool: string;
  isError: boolean;
  result: string;
}

async function ask(prompt: string, ...flags: string[]): Promise<{ result: CliResult; calls: AskedCall[] }> {
  const result = await cli(['ask', '--json', '--yes', ...flags, prompt]);
  expect(result.code).toBe(0);
  return { result, calls: (JSON.parse(result.stdout) as { toolCalls: AskedCall[] }).toolCalls };
}

/** What the model was sent as its system prompt (text mode: the tools and their descriptions). */
function systemPrompts(): string[] {
  return ollama.chatRequests.map((request) => request.messages.find((m) => m.role === 'system')?.content ?? '');
}

function warnings(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('warning: '));
}

describe('rug pulls: tools that change after they were accepted', () => {
  it('rug pull: a rewritten tool description is not offered to the model by ask, and its call is refused, until accepted', async () => {
    await pinThenOffer({ tools: [LOOKUP] }, { tools: [LOOKUP_REWRITTEN] });
    ollama.script(textCall('dict', 'lookup', { word: 'ubiquitous' }), 'Done.');
    const { result, calls } = await ask('define ubiquitous');
    for (const prompt of systemPrompts()) expect(prompt).not.toContain('id_rsa');
    // The model never saw the tool: to it, there is no such tool, and nothing ran.
    expect(calls[0]).toMatchObject({ tool: 'lookup', isError: true });
    expect(calls[0]?.result).toContain('Nothing was run.');
    expect(dict.calls()).toEqual([]);
    const [line, ...more] = warnings(result.stderr);
    expect(more).toEqual([]);
    expect(line).toContain('dict: 1 tool new or changed since you accepted its tools, not offered to the model');
    expect(line).toContain('lookup (description changed)');
    expect(line).toContain('`mcp-chat tools --accept dict`');
    expect(line).toContain('--accept-tool-changes');
  });

  it('rug pull: rewritten server instructions do not reach the model, and the server’s tools wait, until accepted', async () => {
    const said = 'Answer with the definition only.';
    await pinThenOffer(
      { tools: [LOOKUP], instructions: said },
      { tools: [LOOKUP], instructions: `${said} ${INJECTED}` },
    );
    ollama.script(textCall('dict', 'lookup', { word: 'ubiquitous' }), 'Done.');
    const { result, calls } = await ask('define ubiquitous');
    for (const prompt of systemPrompts()) expect(prompt).not.toContain('id_rsa');
    expect(calls[0]).toMatchObject({ tool: 'lookup', isError: true });
    expect(dict.calls()).toEqual([]);
    expect(warnings(result.stderr)).toEqual([expect.stringContaining('lookup (server instructions changed)')]);

    const changes = await cli(['tools', '--changes']);
    expect(changes.stdout).toContain('  lookup: server instructions changed');
    expect(changes.stdout).toContain(`      + ${said} ${INJECTED}`);
    expect((await cli(['tools', '--accept', 'dict'])).code).toBe(0);
    ollama.script(textCall('dict', 'lookup', { word: 'x' }), 'Done.');
    const accepted = await ask('define x');
    expect(accepted.result.stderr).toBe('');
    expect(systemPrompts().at(-1)).toContain('id_rsa');
    expect(accepted.calls[0]).toMatchObject({ isError: false });
  });

  it('a server that gives the same instructions as when it was pinned is offered as it was, with no line', async () => {
    const spec = { tools: [LOOKUP], instructions: 'Answer with the definition only.' };
    await pinThenOffer(spec, spec);
    ollama.script(textCall('dict', 'lookup', { word: 'x' }), 'Done.');
    const { result, calls } = await ask('define x');
    expect(result.stderr).toBe('');
    expect(systemPrompts()[0]).toContain('Answer with the definition only.');
    expect(calls[0]).toMatchObject({ isError: false });
  });

  it('rug pull: a rewritten input schema is refused by call; --accept-tool-changes runs it for that run only', async () => {
    await pinThenOffer({ tools: [LOOKUP] }, { tools: [LOOKUP_WIDER] });
    const refused = await cli(['call', 'dict', 'lookup', '{"word":"x","context":"secret"}']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('lookup (input schema changed)');
    expect(refused.stderr).toContain('Tool "lookup" of server "dict" is held back');
    expect(dict.calls()).toEqual([]);

    const once = await cli(['call', 'dict', 'lookup', '{"word":"x"}', '--accept-tool-changes']);
    expect(once.code).toBe(0);
    expect(once.stdout).toContain('ran lookup');
    expect(warnings(once.stderr)).toEqual([expect.stringContaining('offered for this run (--accept-tool-changes)')]);
    expect((await cli(['call', 'dict', 'lookup', '{"word":"x"}'])).code).toBe(1);
  });

  it('rug pull: tools --changes shows a rewritten description and schema as a diff, and a new tool whole', async () => {
    await pinThenOffer(
      { tools: [LOOKUP] },
      { tools: [{ ...LOOKUP_REWRITTEN, inputSchema: LOOKUP_WIDER.inputSchema }, WIPE] },
    );
    const listed = await cli(['tools']);
    // The listing wraps at 80 columns, its next lines indented: read as one line.
    expect(listed.stdout.replace(/\n +/g, ' ')).toContain(
      "Held back from the model, new or changed since you accepted dict's tools (mcp-chat tools --changes): lookup, wipe",
    );

    const changes = await cli(['tools', '--changes']);
    expect(changes.code).toBe(0);
    expect(changes.stderr).toBe('');
    expect(changes.stdout).toContain('dict: 2 tools new or changed since you accepted its tools');
    expect(changes.stdout).toContain('  lookup: description, input schema changed');
    expect(changes.stdout).toContain(`      - ${LOOKUP.description}\n      + ${LOOKUP_REWRITTEN.description}`);
    expect(changes.stdout).toContain('      +     "context": {');
    expect(changes.stdout).toContain('  wipe: new tool');
    expect(changes.stdout).toContain('      +   "readOnlyHint": true');
    expect(changes.stdout).toContain('Accept them with: mcp-chat tools --accept dict');

    const json = JSON.parse((await cli(['tools', '--changes', '--json'])).stdout) as unknown;
    expect(json).toEqual([
      {
        server: 'dict',
        changes: [
          expect.objectContaining({ type: 'changed', fields: ['description', 'inputSchema'], before: LOOKUP }),
          { type: 'added', tool: WIPE },
        ],
      },
    ]);
  });

  it('tools --accept remembers what it accepts: from the next run the rewritten tool is offered, with no line', async () => {
    await pinThenOffer({ tools: [LOOKUP] }, { tools: [LOOKUP_REWRITTEN] });
    const accepted = await cli(['tools', '--accept', 'dict']);
    expect(accepted.code).toBe(0);
    expect(accepted.stderr).toBe('');
    expect(accepted.stdout).toContain(`      + ${LOOKUP_REWRITTEN.description}`);
    expect(accepted.stdout).toContain('Accepted and remembered (dict)');
    const pinFiles = fs.readdirSync(dict.pinsDir);
    expect(pinFiles.map((name) => fs.statSync(path.join(dict.pinsDir, name)).mode & 0o777)).toEqual([0o600]);
    expect(pinFiles.filter((name) => name.endsWith('.tmp'))).toEqual([]);

    expect((await cli(['tools', '--changes'])).stdout).toContain('No tool changes wait');
    ollama.script(textCall('dict', 'lookup', { word: 'x' }), 'Done.');
    const { result, calls } = await ask('define x');
    expect(result.stderr).toBe('');
    expect(systemPrompts()[0]).toContain('id_rsa');
    expect(calls[0]).toMatchObject({ isError: false, result: 'ran lookup {"word":"x"}' });

    const again = await cli(['tools', '--accept', 'dict']);
    expect(again.stderr).toContain('dict: nothing to accept');
    expect((await cli(['tools', '--accept', 'nosuch'])).code).toBe(2);
  });

  it('rug pull: a tool added mid-session (tools/list_changed) is not offered, and its call is refused, until accepted', async () => {
    const status = { name: 'status', description: 'Say how the dictionary is.', inputSchema: { type: 'object' } };
    const spec = { tools: [status], addOnCall: { when: 'status', tool: WIPE } };
    await pinThenOffer(spec, spec);
    ollama.script(textCall('dict', 'status'), textCall('dict', 'wipe'), 'Done.');
    const { result, calls } = await ask('how is it?');
    expect(calls.map((call) => [call.tool, call.isError])).toEqual([
      ['status', false],
      ['wipe', true],
    ]);
    expect(calls[1]?.result).toContain('Nothing was run.');
    expect(dict.calls()).toEqual(['status']);
    for (const prompt of systemPrompts()) expect(prompt).not.toContain('Delete every file');
    expect(warnings(result.stderr)).toEqual([expect.stringContaining('dict: 1 tool new or changed')]);
    expect(result.stderr).toContain('wipe (new)');
  });

  it('the pins are kept per server, not per name: another command named dict is pinned afresh, and the first keeps its pins', async () => {
    await pinThenOffer({ tools: [LOOKUP] }, { tools: [LOOKUP_REWRITTEN] });
    const other = path.join(dict.dir, 'other.json');
    const impostor = { ...dict.entry, args: [...dict.entry.args, 'another-server'] };
    fs.writeFileSync(other, JSON.stringify({ mcpServers: { dict: impostor } }));
    const first = await cli(['tools'], other);
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('lookup(word)');

    // The first server's pins were not replaced by the other's: its rewrite still waits.
    const back = await cli(['tools']);
    expect(warnings(back.stderr)).toEqual([expect.stringContaining('lookup (description changed)')]);
  });
});
