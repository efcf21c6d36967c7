/**
 * The peer rows' arithmetic (bench/lib/peers/): a run judged done only when the model saw the
 * calls made and their results back and the answer was printed; figures per client, ratios peer
 * over mcp-chat, and the rotation that lets each client lead in turn.
 */
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../bench/lib/model/server.js';
import { expectedAnswer } from '../../bench/lib/model/script.js';
import { ahead, clientFigures, modelFigures, ratios, type PeerRun } from '../../bench/lib/peers/figures.js';
import { roundOrder } from '../../bench/lib/peers/rotation.js';
import { judgeRun } from '../../bench/lib/peers/verdict.js';

const request = (fields: Partial<ModelRequest>): ModelRequest => ({
  at: 0,
  method: 'POST',
  path: '/api/chat',
  bytes: 100,
  api: 'ollama',
  ...fields,
});

const oneCallRequests = (results: string[]): ModelRequest[] => [
  request({ api: 'meta', method: 'POST', path: '/api/show', bytes: 20, at: 5 }),
  request({ kind: 'one-call', replied: 'calls', toolResults: [], at: 40 }),
  request({ kind: 'one-call', replied: 'text', toolResults: results, at: 60 }),
];

const done = { code: 0, stdout: `\u001b[1m${expectedAnswer('one-call')}\u001b[0m\n`, stderr: '', timedOut: false };

describe('judgeRun', () => {
  it('passes a run that made the call, sent its result back and printed the answer (escape sequences aside)', () => {
    expect(judgeRun('one-call', done, oneCallRequests(['7006652']))).toEqual({ ok: true });
  });

  it('fails a run whose tool result is not the calculation', () => {
    expect(judgeRun('one-call', done, oneCallRequests(['Error: unknown tool']))).toEqual({
      ok: false,
      reason: 'no tool result gave 7006652',
    });
  });

  it('fails a run that asked for tool calls twice, one that never printed the answer, and one that exited non-zero', () => {
    const twice = [...oneCallRequests([]).slice(0, 2), ...oneCallRequests(['7006652']).slice(1)];
    expect(judgeRun('one-call', done, twice).ok).toBe(false);
    expect(judgeRun('one-call', { ...done, stdout: 'thinking…' }, oneCallRequests(['7006652'])).ok).toBe(false);
    expect(judgeRun('one-call', { ...done, code: 1, stderr: 'boom\n' }, oneCallRequests(['7006652']))).toEqual({
      ok: false,
      reason: 'exited with 1: boom',
    });
  });

  it('fails a run that never offered the calculator to the model', () => {
    const side = [request({ kind: 'side', replied: 'text', toolResults: [] })];
    expect(judgeRun('answer', { ...done, stdout: expectedAnswer('answer') }, side)).toEqual({
      ok: false,
      reason: 'never asked the model with the calculator offered',
    });
  });
});

describe('figures and ratios', () => {
  it('times the first generation request from spawn and adds up every body', () => {
    expect(modelFigures(10, oneCallRequests(['7006652']))).toEqual({ firstRequestMs: 30, requestBytes: 220 });
  });

  const run = (wallMs: number, ok = true): PeerRun => ({
    figures: { wallMs, cpuMs: wallMs / 2, peakRssMb: 100, firstRequestMs: 50, requestBytes: 1000 },
    verdict: ok ? { ok: true } : { ok: false, reason: 'timed out' },
  });

  it('takes medians per figure, and none at all for a client with a failed run', () => {
    const ours = clientFigures('mcp-chat', 'mcp-chat ask', [run(100), run(300), run(200)]);
    expect(ours.figures?.wallMs.median).toBe(200);
    const failing = clientFigures('codex', 'codex exec', [run(100), run(900, false)]);
    expect(failing).toEqual({ client: 'codex', label: 'codex exec', runs: 2, failures: ['timed out'] });
  });

  it('divides the peer median by mcp-chat’s: above 1 is mcp-chat ahead; nothing to compare is no ratio', () => {
    const ours = clientFigures('mcp-chat', 'mcp-chat ask', [run(200)]);
    const peer = clientFigures('opencode', 'opencode run', [run(800)]);
    expect(ratios(ours, peer)).toMatchObject({ wallMs: 4, cpuMs: 4, peakRssMb: 1 });
    expect(ahead(4)).toBe(true);
    expect(ahead(1)).toBe(false);
    const failed = clientFigures('opencode', 'opencode run', [run(800, false)]);
    expect(Number.isNaN(ratios(ours, failed).wallMs)).toBe(true);
    expect(ahead(Number.NaN)).toBe(false);
  });
});

describe('roundOrder', () => {
  it('rotates the clients one place a round, so each leads in turn', () => {
    const sides = ['mcp-chat', 'codex', 'opencode'];
    expect([0, 1, 2, 3].map((round) => roundOrder(sides, round)[0])).toEqual([
      'mcp-chat',
      'codex',
      'opencode',
      'mcp-chat',
    ]);
    expect(roundOrder(sides, 1)).toEqual(['codex', 'opencode', 'mcp-chat']);
    expect(roundOrder([], 3)).toEqual([]);
  });
});
