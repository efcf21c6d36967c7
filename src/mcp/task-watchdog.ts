/**
 * When a task call stops from this side: the user's cancel, or a watchdog that fires when the
 * task has gone unheard for the call's timeout, or has run for the ceiling in all.
 */
/** Why this side stopped a task: the user's cancel or the watchdog's timeout. */
export type Stop = { kind: 'user'; reason: unknown } | { kind: 'timeout' };

/** Fires when the task has been quiet for `idleMs`, or has run `ceilingMs` in all. */
export class Watchdog {
  readonly fired: Promise<Stop>;
  private readonly timers: NodeJS.Timeout[] = [];
  private idle: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(idleMs: number, ceilingMs: number) {
    this.fired = new Promise((resolve) => {
      const fire = (): void => resolve({ kind: 'timeout' });
      this.idle = setTimeout(fire, idleMs);
      this.timers.push(this.idle, setTimeout(fire, ceilingMs));
    });
  }

  alive(): void {
    // `refresh` would arm a stopped timer again (and hold the process open).
    if (!this.stopped) this.idle?.refresh();
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
  }
}

/** Resolves at the user's cancel; `release` drops the listener, as the signal (a turn's) outlives the call. */
export function userStop(signal: AbortSignal | undefined): { stopped: Promise<Stop>; release: () => void } {
  if (!signal) return { stopped: new Promise(() => undefined), release: () => undefined };
  let release = (): void => undefined;
  const stopped = new Promise<Stop>((resolve) => {
    const onAbort = (): void => resolve({ kind: 'user', reason: signal.reason });
    signal.addEventListener('abort', onAbort, { once: true });
    release = () => signal.removeEventListener('abort', onAbort);
  });
  return { stopped, release };
}
