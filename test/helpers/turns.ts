/**
 * Driving the orchestrator in tests: a tool call written the way the system prompt asks
 * for it, and a turn's events collected and filtered by type.
 */
import type { TurnEvent } from '../../src/vocabulary/types.js';

/** A text-mode tool call, exactly as the system prompt tells the model to write it. */
export const textCall = (server: string, tool: string, args: Record<string, unknown> = {}): string =>
  JSON.stringify({ action: 'use_tool', server, tool, arguments: args });

export async function collect(
  events: AsyncIterable<TurnEvent>,
  onEvent?: (event: TurnEvent) => void,
): Promise<TurnEvent[]> {
  const seen: TurnEvent[] = [];
  for await (const event of events) {
    seen.push(event);
    onEvent?.(event);
  }
  return seen;
}

export const ofType = <T extends TurnEvent['type']>(events: TurnEvent[], type: T): Extract<TurnEvent, { type: T }>[] =>
  events.filter((e): e is Extract<TurnEvent, { type: T }> => e.type === type);
