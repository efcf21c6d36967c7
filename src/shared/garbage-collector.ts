/**
 * Node's `gc()` in a process not started with `--expose-gc`: heap figures are only comparable
 * after a full collection, and a long chat applies its heap tuning with one (cli/heap-tuning.ts).
 */
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * `gc` is given only to contexts made while `--expose-gc` is set, so a throwaway context lends it
 * (about 7 ms to make); the flag is unset again at once, and no other context gets it.
 */
export function garbageCollector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const collect = vm.runInNewContext('gc') as () => void;
  v8.setFlagsFromString('--no-expose-gc');
  return collect;
}
