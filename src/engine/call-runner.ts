/**
 * Runs the calls of one model reply. Calls that need no approval and whose tools say they are
 * read-only run together, at most `maxParallel` at once; the others run one by one in the order
 * written, each asking first when the approval rule says so. Each result is reported as it
 * finishes; all are returned in the order the calls were written, as the model expects them.
 * A call that has already failed twice this turn with the same arguments is not run again.
 * A cancel still gives every call its result: cancelled while it ran, or not run at all.
 */
import type { Approvals } from './approval.js';
import type { PlannedCall } from './reply-interpreter.js';
import { EventChannel } from './event-channel.js';
import { cancelledResult, deniedResult, errorResult } from './tool-execution.js';
import { displayName } from '../vocabulary/tool-naming.js';
import type { ApprovalDecision, CallId, ToolCall, ToolHost, ToolResult, TurnEvent } from '../vocabulary/types.js';
import type { QuestionBook } from './question-book.js';
import { writePreview } from './write-preview.js';

/** Failures of one call with the same arguments, within a turn, after which it is not run again. */
const MAX_SAME_FAILURES = 2;

export interface CallRunnerOptions {
  host: ToolHost;
  approvals: Approvals;
  /** Where approval questions wait for their answer. */
  questions: QuestionBook;
  maxParallel: number;
  /** A new id for each call, unique in the session. */
  newCallId: () => CallId;
}

/** One call of the reply with the id its events carry. */
interface IdentifiedCall {
  id: CallId;
  planned: PlannedCall;
}

/** What one turn remembers of its calls: the loop guard's failure counts. */
export class TurnFailures {
  private readonly counts = new Map<string, number>();

  private static key(call: ToolCall): string {
    return `${displayName(call)} ${JSON.stringify(call.arguments)}`;
  }

  exhausted(call: ToolCall): boolean {
    return (this.counts.get(TurnFailures.key(call)) ?? 0) >= MAX_SAME_FAILURES;
  }

  record(call: ToolCall, result: ToolResult): void {
    if (result.isError) this.counts.set(TurnFailures.key(call), (this.counts.get(TurnFailures.key(call)) ?? 0) + 1);
  }
}

function loopRefusal(call: ToolCall): ToolResult {
  return errorResult(
    `Not run: ${displayName(call)} already failed ${MAX_SAME_FAILURES} times in this turn with these same arguments. ` +
      'Do not call it again with them: change the arguments, use another tool, or tell the user what went wrong.',
  );
}

/** Results already known without running anything: a refusal from the plan, or the loop guard's. */
function settledResult(planned: PlannedCall, failures: TurnFailures): ToolResult | undefined {
  return planned.refusal ?? (failures.exhausted(planned.call) ? loopRefusal(planned.call) : undefined);
}

/**
 * Yields `[index, result]` as each task finishes, with at most `limit` running at once, and
 * meanwhile the events the tasks report (their progress) as they come.
 */
async function* asCompleted(
  tasks: (() => Promise<ToolResult>)[],
  limit: number,
  events: EventChannel<TurnEvent>,
): AsyncGenerator<TurnEvent | [number, ToolResult]> {
  const running = new Map<number, Promise<[number, ToolResult]>>();
  let next = 0;
  while (next < tasks.length || running.size > 0) {
    while (running.size < limit && next < tasks.length) {
      const index = next++;
      const task = tasks[index] as () => Promise<ToolResult>;
      running.set(
        index,
        task().then((result): [number, ToolResult] => [index, result]),
      );
    }
    // `callTool` never throws: every failure, a cancel included, is a result.
    const [index, result] = yield* events.until(Promise.race(running.values()));
    running.delete(index);
    yield [index, result];
  }
}

/** How one reply's calls run: its cancel, and where their progress goes. */
interface RunningCalls {
  signal: AbortSignal | undefined;
  events: EventChannel<TurnEvent>;
  callTool: (call: IdentifiedCall) => Promise<ToolResult>;
}

/** What became of one call of the reply, by its id. */
export interface CallOutcome {
  id: CallId;
  result: ToolResult;
}

export class CallRunner {
  constructor(private readonly options: CallRunnerOptions) {}

  private readOnly(call: ToolCall): boolean {
    const spec = this.options.host.listTools().find((tool) => tool.server === call.server && tool.name === call.tool);
    return spec?.annotations?.readOnlyHint === true;
  }

  private together(planned: PlannedCall, failures: TurnFailures): boolean {
    const { call } = planned;
    return !settledResult(planned, failures) && !this.options.approvals.needed(call) && this.readOnly(call);
  }

  /** Runs every call of the reply; what became of each, in the order the calls were written. */
  async *run(
    plannedCalls: PlannedCall[],
    step: number,
    failures: TurnFailures,
    signal?: AbortSignal,
  ): AsyncGenerator<TurnEvent, CallOutcome[]> {
    const calls = plannedCalls.map((planned): IdentifiedCall => ({ id: this.options.newCallId(), planned }));
    const outcomes: CallOutcome[] = [];
    const finish = (index: number, ran: ToolResult): TurnEvent => {
      const { id, planned } = calls[index] as IdentifiedCall;
      // A call that failed once the turn was cancelled failed because it was: it says so.
      const result = signal?.aborted && ran.isError && !ran.cancelled ? cancelledResult(planned.call, true) : ran;
      failures.record(planned.call, result);
      outcomes[index] = { id, result };
      return { type: 'tool-result', id, call: planned.call, result, step };
    };
    const started = ({ id, planned }: IdentifiedCall): TurnEvent => ({
      type: 'tool-call',
      id,
      call: planned.call,
      step,
    });
    const events = new EventChannel<TurnEvent>();
    const callTool = ({ id, planned: { call } }: IdentifiedCall): Promise<ToolResult> =>
      this.options.host.callTool(call, signal, (progress) =>
        events.push({ type: 'tool-progress', id, call, progress, step }),
      );
    const parallel = calls.flatMap((identified, index) => (this.together(identified.planned, failures) ? [index] : []));
    for (const index of parallel) yield started(calls[index] as IdentifiedCall);
    const tasks = parallel.map((index) => () => callTool(calls[index] as IdentifiedCall));
    for await (const item of asCompleted(tasks, this.options.maxParallel, events)) {
      if (Array.isArray(item)) yield finish(parallel[item[0]] as number, item[1]);
      else yield item;
    }
    for (const [index, identified] of calls.entries()) {
      if (parallel.includes(index)) continue;
      if (signal?.aborted) {
        yield finish(index, cancelledResult(identified.planned.call, false));
        continue;
      }
      yield started(identified);
      const result = yield* this.runOne(identified, step, failures, { signal, events, callTool });
      yield finish(index, result);
    }
    return outcomes;
  }

  /** One call in order: settled without running, refused by the user, or run (its progress reported as it comes). */
  private async *runOne(
    identified: IdentifiedCall,
    step: number,
    failures: TurnFailures,
    running: RunningCalls,
  ): AsyncGenerator<TurnEvent, ToolResult> {
    const { planned } = identified;
    const settled = settledResult(planned, failures);
    if (settled) return settled;
    const { call } = planned;
    if (this.options.approvals.needed(call)) {
      const decision = yield* this.askApproval(identified, step, running.signal);
      if (running.signal?.aborted) return cancelledResult(call, false);
      if (decision === 'deny') return deniedResult(call);
    }
    return yield* running.events.until(running.callTool(identified));
  }

  /** Asks whether the call may run, and waits for the answer by the question's id. */
  private async *askApproval(
    { id: callId, planned: { call } }: IdentifiedCall,
    step: number,
    signal?: AbortSignal,
  ): AsyncGenerator<TurnEvent, ApprovalDecision> {
    const { host, approvals } = this.options;
    const preview = await writePreview(call, { host, needsApproval: (read) => approvals.needed(read), signal });
    const { question, answered } = this.options.questions.open({ kind: 'approval', callId, call }, signal);
    yield { type: 'approval-request', id: question.id, callId, call, step, ...(preview && { preview }) };
    const decision = await answered;
    this.options.approvals.record(call, decision);
    return decision;
  }
}
