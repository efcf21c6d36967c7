/**
 * Entry of the evaluator child process: evaluates one expression per IPC request with the
 * restricted calculator. The parent bounds its time and memory and kills it when needed.
 */
import { createCalculator } from './evaluate.js';
import { isEvaluateRequest } from './protocol.js';
import type { ChildMessage } from './protocol.js';

function send(message: ChildMessage): void {
  process.send?.(message);
}

if (process.send === undefined) {
  process.stderr.write('calculator evaluator: must be started by the calculator server (no IPC channel)\n');
  process.exit(2);
}

const calculator = createCalculator();

process.on('message', (message: unknown) => {
  if (!isEvaluateRequest(message)) return;
  send({ type: 'result', id: message.id, outcome: calculator.evaluate(message.expression) });
});

// The server going away (even killed) closes the IPC channel: never outlive it.
process.on('disconnect', () => process.exit(0));

send({ type: 'ready' });
