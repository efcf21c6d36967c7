/**
 * The detector's safety contract as a property, shared by the tests that throw generated
 * replies at it: it never throws, stays fast, and only ever calls real tools, never from a
 * truncated reply.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { detectToolCalls } from '../../src/tool-call/detector.js';
import type { ToolSpec } from '../../src/vocabulary/types.js';

/** The slowest a single reply may take, on a busy two-core machine. */
const WORST_CASE_MS = 250;

export function expectSafeDetection(replies: fc.Arbitrary<string>, tools: ToolSpec[], numRuns: number): void {
  let slowest = 0;
  fc.assert(
    fc.property(replies, fc.boolean(), (raw, truncated) => {
      const started = performance.now();
      const result = detectToolCalls(raw, tools, { truncated });
      slowest = Math.max(slowest, performance.now() - started);
      expect(['answer', 'calls', 'malformed']).toContain(result.type);
      if (result.type !== 'calls') return;
      expect(truncated).toBe(false);
      for (const item of result.calls) {
        expect(tools.some((tool) => tool.server === item.server && tool.name === item.tool)).toBe(true);
      }
    }),
    { numRuns },
  );
  expect(slowest).toBeLessThan(WORST_CASE_MS);
}
