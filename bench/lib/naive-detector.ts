/**
 * The baseline tool-call detector: the reply is taken as a call only when it is exactly
 * the JSON object the system prompt asks for (surrounding whitespace allowed), which is
 * what a chat tool gets without a tolerant detector.
 */
import type { ToolCall } from '../../src/vocabulary/types.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function naiveDetect(raw: string): ToolCall[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.trim());
  } catch {
    return [];
  }
  if (!isRecord(parsed) || parsed.action !== 'use_tool') return [];
  const { server, tool, arguments: args } = parsed;
  if (typeof server !== 'string' || typeof tool !== 'string' || !isRecord(args)) return [];
  return [{ server, tool, arguments: args }];
}
