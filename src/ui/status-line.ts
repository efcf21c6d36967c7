/**
 * The status bar's parts, fitted to one line: each server, the model, Ollama, the context gauge
 * and what the chat is doing. When they do not fit, the least telling go shorter first (the
 * gauge, then the servers that are fine, then the model's name), then what only says all is well
 * goes; what the chat is doing, and a server that is not fine, stay whole. Pure: StatusBar.tsx
 * draws the parts.
 */
import type { ServerStatus } from '../session/chat-session.js';
import { contextGauge } from '../present/usage.js';
import { assertNever } from '../shared/errors.js';
import type { ScreenState } from './chat-state.js';
import type { Activity } from './history.js';
import type { OllamaStatus } from './ollama-status.js';

export type Tone = 'dim' | 'green' | 'yellow' | 'red';

export interface StatusPart {
  text: string;
  tone: Tone;
}

export interface StatusInput {
  model: string;
  ollama: OllamaStatus;
  servers: ServerStatus[];
  context?: { used: number; size: number } | undefined;
  /** What a turn is doing now (`responding`); none when the chat waits for the user. */
  busy?: string | undefined;
}

/** Columns between two parts. */
export const GAP = 2;

/** Past these shares of the context the gauge turns yellow, then red: Ollama drops the prompt's start once it is full. */
const CONTEXT_WARN = 0.75;
const CONTEXT_FULL = 0.9;

/** The shortest a model's name is cut to: enough to tell `qwen3:8b` from `llama3.2`. */
const MODEL_MIN = 12;

function serverPart(status: ServerStatus): StatusPart {
  switch (status.state) {
    case 'ready':
      return { text: `${status.name} ✓ ${status.toolCount}`, tone: 'green' };
    case 'starting':
      return { text: `${status.name} starting`, tone: 'yellow' };
    case 'crashed':
      return { text: `${status.name} restarting`, tone: 'yellow' };
    case 'disabled':
      return { text: `${status.name} off`, tone: 'dim' };
    case 'failed':
    case 'closed':
      return { text: `${status.name} ✗ ${status.state}`, tone: 'red' };
  }
}

function ollamaPart(status: OllamaStatus): StatusPart {
  if (status.state === 'ok') return { text: 'ollama ✓', tone: 'green' };
  if (status.state === 'checking') return { text: 'ollama …', tone: 'yellow' };
  return { text: 'ollama ✗', tone: 'red' };
}

function gaugePart(context: { used: number; size: number }, short: boolean): StatusPart {
  const share = context.size > 0 ? context.used / context.size : 0;
  const tone = share >= CONTEXT_FULL ? 'red' : share >= CONTEXT_WARN ? 'yellow' : 'dim';
  return { text: short ? `ctx ${Math.round(share * 100)}%` : contextGauge(context), tone };
}

/** Servers that are fine (ready or switched off) as one count; the others each by name. */
function serverParts(servers: ServerStatus[], grouped: boolean): StatusPart[] {
  if (!grouped) return servers.map(serverPart);
  const fine = servers.filter((status) => status.state === 'ready' || status.state === 'disabled');
  const others = servers.filter((status) => !fine.includes(status)).map(serverPart);
  if (fine.length === 0) return others;
  const tools = fine.reduce((sum, status) => sum + (status.state === 'ready' ? status.toolCount : 0), 0);
  const noun = fine.length === 1 ? 'server' : 'servers';
  return [{ text: `${fine.length} ${noun} ✓ ${tools}`, tone: 'green' }, ...others];
}

const cut = (text: string, room: number): string => (text.length <= room ? text : `${text.slice(0, room - 1)}…`);

const lineWidth = (parts: StatusPart[]): number =>
  parts.reduce((sum, part) => sum + Array.from(part.text).length, 0) + GAP * Math.max(0, parts.length - 1);

/** The parts in the order drawn, each as short as `level` says (0: all whole). */
function partsAt(input: StatusInput, level: number): StatusPart[] {
  const ready = input.servers.length > 0 && input.servers.every((status) => status.state !== 'starting');
  const doing = input.busy ? { text: `${input.busy} · Esc cancels`, tone: 'yellow' as const } : undefined;
  const state = doing ?? (ready ? { text: 'ready', tone: 'dim' as const } : undefined);
  const gauge = input.context ? gaugePart(input.context, level >= 1) : undefined;
  // Last, what says only that all is well goes: Ollama answering, a context far from full.
  const quiet = level >= 4;
  return [
    { text: level >= 3 ? cut(input.model, MODEL_MIN) : input.model, tone: 'dim' },
    ...(quiet && input.ollama.state === 'ok' ? [] : [ollamaPart(input.ollama)]),
    ...(gauge && !(quiet && gauge.tone === 'dim') ? [gauge] : []),
    ...serverParts(input.servers, level >= 2),
    ...(state ? [state] : []),
  ];
}

/** What the status bar says a turn is doing; none when it waits for the user. */
function busyLabel(activity: Activity): string | undefined {
  switch (activity.type) {
    case 'idle':
      return undefined;
    case 'waiting':
      return 'thinking';
    case 'thinking':
      return 'reasoning';
    case 'streaming':
      return 'responding';
    case 'tool':
      return 'running tools';
    case 'approval':
      return 'waiting for your answer';
    default:
      return assertNever(activity);
  }
}

/** The screen's state as the status bar reads it. */
export function statusOf(state: ScreenState): Omit<StatusInput, 'model'> {
  return { ollama: state.ollama, servers: state.servers, context: state.context, busy: busyLabel(state.activity) };
}

const LEVELS = 5;

/** The richest parts that fit `width` columns; the shortest when none do (the bar then cuts its end). */
export function statusParts(input: StatusInput, width: number): StatusPart[] {
  for (let level = 0; level < LEVELS - 1; level++) {
    const parts = partsAt(input, level);
    if (lineWidth(parts) <= width) return parts;
  }
  return partsAt(input, LEVELS - 1);
}
