/**
 * The preview of a write: the file's current content is read through the same server, only when
 * that read runs unasked, and the write becomes a diff against it, or says the file is new.
 */
import { describe, expect, it } from 'vitest';
import { fileChange, previewFrom, writePreview } from '../../src/engine/write-preview.js';
import type { ToolCall } from '../../src/vocabulary/types.js';
import { FakeToolHost } from '../fakes/fake-tool-host.js';

const write = (path: string, content: string): ToolCall => ({
  server: 'file',
  tool: 'write_file',
  arguments: { path, content },
});
const unasked = (): boolean => false;

describe('fileChange', () => {
  it('reads a whole-file write and a list of edits; an append or a call without a path is none', () => {
    expect(fileChange(write('a', 'new'))?.apply('old')).toBe('new');
    const edits = [{ oldText: 'b', newText: 'B' }];
    expect(fileChange({ server: 'fs', tool: 'edit_file', arguments: { path: 'a', edits } })?.apply('abc')).toBe('aBc');
    expect(
      fileChange({ server: 'fs', tool: 'edit_file', arguments: { path: 'a', edits } })?.apply('xyz'),
    ).toBeUndefined();
    expect(fileChange({ server: 'fs', tool: 'append_file', arguments: { path: 'a', content: 'x' } })).toBeUndefined();
    expect(fileChange({ server: 'fs', tool: 'write_file', arguments: { content: 'x' } })).toBeUndefined();
  });
});

describe('writePreview', () => {
  it('diffs a write against the current content, read through the same server', async () => {
    const host = new FakeToolHost();
    host.files.set('notes.txt', 'one\ntwo\nthree\n');
    const preview = await writePreview(write('notes.txt', 'one\n2\nthree\n'), { host, needsApproval: unasked });
    expect(preview).toMatchObject({ kind: 'diff', path: 'notes.txt' });
    expect(preview?.kind === 'diff' && preview.patch).toMatch(/\n-two\n\+2\n/);
    expect(host.calls).toEqual([{ server: 'file', tool: 'read_file', arguments: { path: 'notes.txt' } }]);
  });

  it('says a file the server cannot read is new, with what the server said', async () => {
    const host = new FakeToolHost();
    const preview = await writePreview(write('fresh.txt', 'hi'), { host, needsApproval: unasked });
    expect(preview).toEqual({ kind: 'new-file', path: 'fresh.txt', reason: 'Error: no such file fresh.txt' });
  });

  it('reads nothing when the read would need approval itself, or the call is not a write', async () => {
    const host = new FakeToolHost();
    host.files.set('notes.txt', 'one');
    expect(await writePreview(write('notes.txt', 'two'), { host, needsApproval: () => true })).toBeUndefined();
    const other: ToolCall = { server: 'calculator', tool: 'evaluate', arguments: { expression: '1+1' } };
    expect(await writePreview(other, { host, needsApproval: unasked })).toBeUndefined();
    expect(host.calls).toEqual([]);
  });

  it('does not compare with a read that was cut short or a binary file', async () => {
    const change = fileChange(write('big.txt', 'x'));
    if (!change) throw new Error('a write');
    const cut = { isError: false, durationMs: 1, forModel: 'start\n[… truncated: showing 10 of 99 characters]' };
    expect(await previewFrom(change, cut)).toMatchObject({ kind: 'not-compared' });
    const binary = {
      isError: false,
      durationMs: 1,
      forModel: 'big.txt is a binary file (12 bytes); its content is not shown.',
    };
    expect(await previewFrom(change, binary)).toMatchObject({
      kind: 'not-compared',
      reason: 'the current file is binary',
    });
  });
});
