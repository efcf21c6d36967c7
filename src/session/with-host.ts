/**
 * Runs a command with the MCP host started, and guarantees the host is closed (every
 * child process gone) however the command ends: normally, by error, or by a signal.
 * The host's code (the SDK's client among it) is loaded here, only by commands that start servers.
 */
import type { HostOptions, McpHost } from '../mcp/host.js';
import { ToolPinStore } from '../state/tool-pin-store.js';
import type { Runtime } from './runtime.js';
import { ToolPinGate } from './tool-pin-gate.js';

/** Exit status for a process ended by a signal: 128 + the signal number. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof SIGNAL_EXIT;

/**
 * The hosts open in this process (an editor's ACP agent holds one per session): a signal closes
 * them all, then ends the process once. One listener per signal, however many hosts are open.
 */
const openHosts = new Set<() => Promise<void>>();
let stopping = false;

function onStopSignal(signal: StopSignal): void {
  if (stopping) return;
  stopping = true;
  void Promise.allSettled([...openHosts].map((close) => close())).finally(() => process.exit(SIGNAL_EXIT[signal]));
}

function holdHost(close: () => Promise<void>): () => void {
  if (openHosts.size === 0) {
    process.on('SIGINT', onStopSignal);
    process.on('SIGTERM', onStopSignal);
  }
  openHosts.add(close);
  return () => {
    openHosts.delete(close);
    if (openHosts.size > 0 || stopping) return;
    process.off('SIGINT', onStopSignal);
    process.off('SIGTERM', onStopSignal);
  };
}

export interface HostNotices {
  /** One line each for servers that failed to start (and disabled ones, unless `disabled` is given). */
  warn: (line: string) => void;
  /** One line each for servers disabled by their config (a missing variable); defaults to `warn`. */
  disabled?: (line: string) => void;
  /** One line per server whose tools changed since the user accepted them; defaults to `warn`. */
  toolChanges?: (line: string) => void;
}

/** A script's pin gate: no one to ask, so what changed is refused (or offered for the run, with the flag). */
function scriptPins(runtime: Runtime, notices: HostNotices): ToolPinGate | undefined {
  const settings = runtime.toolPins;
  if (!settings) return undefined;
  return new ToolPinGate({
    store: new ToolPinStore(settings.dir),
    acceptForRun: settings.acceptForRun,
    notify: notices.toolChanges ?? notices.warn,
    log: runtime.log,
  });
}

export function withHost<T>(
  runtime: Runtime,
  notices: HostNotices,
  /** `pins`: what waits for the user's acceptance (`tools --changes`); none when nothing is pinned. */
  run: (host: McpHost, pins: ToolPinGate | undefined) => Promise<T>,
  hostOptions: Partial<HostOptions> = {},
): Promise<T> {
  return withHostAnd(
    runtime,
    notices,
    () => Promise.resolve(undefined),
    (host, _prepared, pins) => run(host, pins),
    hostOptions,
  );
}

/**
 * `withHost`, with `meanwhile` (such as loading the code that comes next) begun once the servers
 * are starting: a child's start-up is time the command would otherwise spend waiting. `run` gets
 * what it resolved to; a failure of either ends the command like any other.
 */
export async function withHostAnd<T, P>(
  runtime: Runtime,
  notices: HostNotices,
  meanwhile: () => Promise<P>,
  run: (host: McpHost, prepared: P, pins: ToolPinGate | undefined) => Promise<T>,
  hostOptions: Partial<HostOptions> = {},
): Promise<T> {
  let host: McpHost | undefined;
  const closeAll = async (): Promise<void> => {
    await host?.close();
  };
  const release = holdHost(closeAll);
  try {
    for (const disabled of runtime.config.disabled) {
      runtime.log.info({ server: disabled.name, reason: disabled.reason }, 'server disabled');
      (notices.disabled ?? notices.warn)(`${disabled.name}: disabled (${disabled.reason})`);
    }
    const { McpHost } = await import('../mcp/host.js');
    const pins = scriptPins(runtime, notices);
    host = new McpHost(runtime.config.servers, {
      log: runtime.log,
      roots: runtime.config.roots,
      ...(pins ? { vetTools: pins } : {}),
      ...hostOptions,
    });
    const started = host.start();
    const prepared = meanwhile();
    // Neither is left unawaited when the other fails: the host is closed below either way.
    const [, ready] = await Promise.all([started, prepared]);
    for (const status of host.statuses()) {
      if (status.state === 'failed') notices.warn(`${status.name}: ${status.lastError ?? 'failed to start'}`);
    }
    // Security: a tool renamed because its name read as another server's is said, not only logged.
    for (const line of host.nameWarnings()) notices.warn(line);
    return await run(host, ready, pins);
  } finally {
    release();
    await closeAll();
  }
}
