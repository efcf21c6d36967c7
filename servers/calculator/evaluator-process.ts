/**
 * Runs expressions in one child process, one at a time, each under a wall-clock timeout and a
 * heap limit. The child starts with the first call, not with the server: a session that never
 * calculates never pays for mathjs (a process of its own, loaded at start-up, when every server
 * and the client compete for the cores). A child that times out, runs out of memory or dies is
 * killed and replaced: its caller gets an error outcome, the next call a fresh child.
 * evaluate() never rejects.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertNever } from '../shared/assert-never.js';
import { failure, isChildMessage } from './protocol.js';
import type { ChildMessage, EvaluateRequest, Outcome } from './protocol.js';

export interface EvaluatorOptions {
  /** Wall-clock limit of one evaluation, from the moment the child receives it. */
  timeoutMs: number;
  /** V8 old-generation heap limit of the child. */
  maxMemoryMb: number;
  /** The compiled child entry (JavaScript). */
  childPath: string;
  /** One-line diagnostics; the server passes stderr (stdout is the JSON-RPC channel). */
  log: (line: string) => void;
}

interface Job {
  id: number;
  expression: string;
  resolve: (outcome: Outcome) => void;
}

interface Running {
  process: ChildProcess;
  ready: boolean;
  stderrTail: string;
  startupTimer: NodeJS.Timeout;
}

/** Loading mathjs on a busy two-core machine can take seconds; this only catches a hung start. */
const STARTUP_TIMEOUT_MS = 20_000;
/** Bounds the memory a flooding client can tie up; a model sends a handful of calls at once. */
const MAX_PENDING = 256;
/** Enough of the child's stderr to recognise V8's out-of-memory report. */
const STDERR_TAIL_CHARS = 4_000;

/**
 * Why: a child process needs JavaScript, and vitest runs our .ts sources directly. Compiled
 * (dist/servers/calculator/*.js), the child sits next to this module; run from source, we use
 * the compiled child in dist/, so tests exercise the sandbox that ships (`npm test` builds first).
 * A missing build becomes a clear error result, not a crash.
 */
export function defaultChildPath(moduleUrl: string = import.meta.url): string {
  const here = fileURLToPath(moduleUrl);
  if (here.endsWith('.js')) return path.join(path.dirname(here), 'evaluator-child.js');
  return path.resolve(path.dirname(here), '../../dist/servers/calculator/evaluator-child.js');
}

export class Evaluator {
  private running: Running | undefined;
  private current: { job: Job; timer: NodeJS.Timeout } | undefined;
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: EvaluatorOptions) {}

  evaluate(expression: string): Promise<Outcome> {
    if (this.closed) return Promise.resolve(failure('The calculator is shutting down'));
    if (this.queue.length >= MAX_PENDING) {
      return Promise.resolve(failure(`Too many calculations are waiting (${MAX_PENDING}); try again shortly`));
    }
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, expression, resolve });
      this.pump();
    });
  }

  close(): void {
    this.closed = true;
    this.finishCurrent(failure('The calculator is shutting down'));
    this.kill();
    for (const job of this.queue.splice(0)) job.resolve(failure('The calculator is shutting down'));
  }

  /** Sends the next queued job when the child is ready and idle; one at a time keeps timeouts exact. */
  private pump(): void {
    if (this.closed || this.current !== undefined || this.queue.length === 0) return;
    if (this.running === undefined) this.spawn();
    const running = this.running;
    if (running === undefined || !running.ready) return;
    const job = this.queue.shift() as Job;
    const timer = setTimeout(() => this.onTimeout(), this.options.timeoutMs);
    this.current = { job, timer };
    const request: EvaluateRequest = { id: job.id, expression: job.expression };
    // A send to a child that just died fails here; its exit event settles the job.
    running.process.send(request, (error) => {
      if (error) this.options.log(`calculator: could not reach the evaluator: ${error.message}`);
    });
  }

  private spawn(): void {
    const { childPath, maxMemoryMb } = this.options;
    if (!fs.existsSync(childPath)) {
      this.failQueued(`The calculator's evaluator is not built (${childPath} is missing); run npm run build`);
      return;
    }
    const child = fork(childPath, [], {
      // Security: no inherited environment (no secrets reach the sandbox) and no loader flags from
      // the parent; the heap limit bounds memory, and code generation from strings is off in V8 itself.
      env: {},
      execArgv: [`--max-old-space-size=${maxMemoryMb}`, '--disallow-code-generation-from-strings'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    const startupTimer = setTimeout(() => this.onStartupTimeout(running), STARTUP_TIMEOUT_MS);
    const running: Running = { process: child, ready: false, stderrTail: '', startupTimer };
    this.running = running;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      running.stderrTail = (running.stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    child.on('message', (message: unknown) => this.onMessage(running, message));
    // 'close', not 'exit': it comes after stderr has drained, so V8's out-of-memory report is in the tail.
    child.on('close', (code, signal) =>
      this.onExit(running, code === null ? `signal ${signal ?? '?'}` : `code ${code}`),
    );
    child.on('error', (error) => this.onExit(running, error.message));
    // Why: a server someone forgot to close must not keep its host process alive; a pending
    // call keeps the event loop busy through its own timer.
    child.unref();
    child.channel?.unref();
    (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  }

  private onMessage(running: Running, message: unknown): void {
    if (running !== this.running || !isChildMessage(message)) return;
    const typed: ChildMessage = message;
    switch (typed.type) {
      case 'ready':
        running.ready = true;
        clearTimeout(running.startupTimer);
        this.pump();
        return;
      case 'result':
        if (this.current?.job.id === typed.id) this.finishCurrent(typed.outcome);
        this.pump();
        return;
      default:
        assertNever(typed);
    }
  }

  private onTimeout(): void {
    const seconds = this.options.timeoutMs / 1000;
    this.finishCurrent(failure(`The calculation took longer than ${seconds} s and was stopped`));
    this.restart('timeout');
  }

  private onStartupTimeout(running: Running): void {
    if (running !== this.running) return;
    this.kill();
    this.failQueued(`The calculator's evaluator did not start within ${STARTUP_TIMEOUT_MS / 1000} s`);
  }

  private onExit(running: Running, how: string): void {
    if (running !== this.running) return;
    this.running = undefined;
    clearTimeout(running.startupTimer);
    const outOfMemory = /heap out of memory|Allocation failed/.test(running.stderrTail);
    if (this.current !== undefined) {
      this.finishCurrent(
        outOfMemory
          ? failure(`The calculation needed more than ${this.options.maxMemoryMb} MB of memory and was stopped`)
          : failure(`The calculator's evaluator stopped unexpectedly (${how})`),
      );
      this.restart(outOfMemory ? 'out of memory' : how);
    } else if (!running.ready) {
      // Failing at start would fail again: answer the waiting calls instead of looping.
      const tail = running.stderrTail.trim().split('\n').pop() ?? '';
      this.failQueued(`The calculator's evaluator could not start (${how}${tail ? `: ${tail}` : ''})`);
    }
  }

  /** Replace a killed or dead child at once, so the next call finds a warm one. */
  private restart(reason: string): void {
    this.options.log(`calculator: evaluator replaced (${reason})`);
    this.kill();
    if (this.closed) return;
    this.spawn();
    this.pump();
  }

  private finishCurrent(outcome: Outcome): void {
    const current = this.current;
    if (current === undefined) return;
    this.current = undefined;
    clearTimeout(current.timer);
    current.job.resolve(outcome);
  }

  private failQueued(message: string): void {
    for (const job of this.queue.splice(0)) job.resolve(failure(message));
  }

  private kill(): void {
    const running = this.running;
    if (running === undefined) return;
    this.running = undefined;
    clearTimeout(running.startupTimer);
    running.process.kill('SIGKILL');
  }
}
