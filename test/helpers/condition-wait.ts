/**
 * How long a test waits for a condition (a process gone, a request arrived, a file written): a
 * ceiling only a hang reaches, on a busy shared machine too. A wait that is met returns at once.
 */
export const CONDITION_WAIT = { timeout: 30_000, interval: 20 };
