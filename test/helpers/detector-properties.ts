/**
 * The detector's safety contract as a property, shared by the tests that throw generated
 * replies at it: it never throws, and only ever calls real tools, never from a truncated reply.
 * How fast it is, is bench/detector.ts's business: a reply that hung it would reach the ceiling.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { detectToolCalls } from '../../src/tool-call/detector.js';
import type { ToolSpec } from '../../src/vocabulary/types.js';

export function expectSafeDetection(replies: fc.Arbitrary<string>, tools: ToolSpec[], numRuns: number): void {
  fc.assert(
    fc.property(replies, fc.boolean(), (raw, truncated) => {
      const result = detectToolCalls(raw, tools, { truncated });
      expect(['answer', 'calls', 'malformed']).toContain(result.type);
      if (result.type !== 'calls') return;
      expect(truncated).toBe(false);
      for (const item of result.calls) {
        expect(tools.some((tool) => tool.server === item.server && tool.name === item.tool)).toBe(true);
      }
    }),
    { numRuns },
  );
}
