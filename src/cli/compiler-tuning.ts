/**
 * Keeps a long chat's code out of V8's middle optimising tier, Maglev (on by default from Node 24;
 * Node 20 and 22 run without it). Measured in the REPL on Node 24 and 26 (bench/fixes.md):
 *
 * - The first full collection after a reply deoptimises Maglev's code for the streaming path
 *   (V8's reason: "embedded weak objects cleared", objects the code held weakly found dead): 34 to
 *   70 functions of Node's streams and timers, Ink's output and the reply's reading, at a
 *   collection made one second after the warm-up reply or at the one V8's memory reducer makes
 *   once the chat is idle. None of them was optimised again in the next replies.
 * - Meanwhile its code and metadata accumulate as more functions reach its threshold: the live heap
 *   grew by 1.2 MB from turn 50 to 300, against 0.4 MB without it.
 *
 * Without it, V8 optimises with Turbofan alone, as on Node 22: the CPU while a reply streams stayed
 * within the runs' spread; the first reply costs more, as Turbofan reaches the streaming path later.
 * Turbofan's code is not spared either: on Node 26 the memory reducer's first collection
 * deoptimised 34 of its functions (bench/fixes.md), so what this tier-off keeps is the memory.
 * The flag is read at each tiering decision, so setting it in the running process takes effect;
 * only the chat sets it, once its servers are up, so start-up and other commands keep V8's defaults.
 */
import v8 from 'node:v8';

export function tuneCompilerForLongSession(): void {
  v8.setFlagsFromString('--no-maglev');
}

/** Tunes the compiler as soon as the chat has started (`started`: its servers are up), before a reply. */
export function tuneCompilerOnceStarted(started: Promise<void>): void {
  void started.then(tuneCompilerForLongSession);
}
