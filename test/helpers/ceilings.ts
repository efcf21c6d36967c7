/**
 * Ceilings for tests that keep a core busy for seconds (property tests and fuzzing): beside other
 * work on a shared two-core machine they take several times what they take alone, and only a hang
 * should reach these. How fast the code is belongs to bench/.
 */
export const CPU_BOUND_MS = 240_000;
