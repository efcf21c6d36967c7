/**
 * Waits for named pieces of work, at most `ms`, and resolves to the names of those still under way
 * then (none: all ended). A rejection counts as ended: whoever started the work reports its failure.
 */
export async function stillPendingAfter(work: Record<string, Promise<unknown>>, ms: number): Promise<string[]> {
  const pending = new Set(Object.keys(work));
  const ended = Promise.allSettled(
    Object.entries(work).map(([name, promise]) => promise.finally(() => pending.delete(name))),
  );
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([ended, limit]).finally(() => clearTimeout(timer));
  return [...pending];
}
