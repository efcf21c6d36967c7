/** Model, Ollama and each server's state, updated as servers come up. */
import { Box, Text } from 'ink';
import { memo } from 'react';
import type { ServerStatus } from '../../session/chat-session.js';
import type { OllamaStatus } from '../ollama-status.js';
import { contextGauge } from '../../present/usage.js';

function ServerBadge({ status }: { status: ServerStatus }): React.JSX.Element {
  switch (status.state) {
    case 'ready':
      return <Text color="green">{`${status.name} ✓ ${status.toolCount}`}</Text>;
    case 'starting':
      return <Text color="yellow">{`${status.name} starting`}</Text>;
    case 'crashed':
      return <Text color="yellow">{`${status.name} restarting`}</Text>;
    case 'disabled':
      return <Text dimColor>{`${status.name} off`}</Text>;
    case 'failed':
    case 'closed':
      return <Text color="red">{`${status.name} ✗ ${status.state}`}</Text>;
  }
}

function OllamaBadge({ status }: { status: OllamaStatus }): React.JSX.Element {
  if (status.state === 'ok') return <Text color="green">ollama ✓</Text>;
  if (status.state === 'checking') return <Text color="yellow">ollama …</Text>;
  return <Text color="red">ollama ✗</Text>;
}

/** Past these shares of the context the gauge turns yellow, then red: Ollama drops the prompt's start once it is full. */
const CONTEXT_WARN = 0.75;
const CONTEXT_FULL = 0.9;

function ContextGauge({ context }: { context: { used: number; size: number } }): React.JSX.Element {
  const share = context.size > 0 ? context.used / context.size : 0;
  const color = share >= CONTEXT_FULL ? 'red' : share >= CONTEXT_WARN ? 'yellow' : undefined;
  return (
    <Text color={color} dimColor={color === undefined}>
      {contextGauge(context)}
    </Text>
  );
}

function Status({
  model,
  ollama,
  servers,
  context,
}: {
  model: string;
  ollama: OllamaStatus;
  servers: ServerStatus[];
  /** How full the context was at the last request; none before the first. */
  context?: { used: number; size: number } | undefined;
}): React.JSX.Element {
  const ready = servers.length > 0 && servers.every((s) => s.state !== 'starting');
  return (
    <Box marginTop={1} gap={2} flexWrap="wrap">
      <Text dimColor>{model}</Text>
      <OllamaBadge status={ollama} />
      {context ? <ContextGauge context={context} /> : null}
      {servers.map((status) => (
        <ServerBadge key={status.name} status={status} />
      ))}
      {ready ? <Text dimColor>ready</Text> : null}
    </Box>
  );
}

/** Memoised: a streaming reply redraws the screen at every frame; the bar changes only with a server, Ollama or the context. */
export const StatusBar = memo(Status);
