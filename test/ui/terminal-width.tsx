/**
 * ink-testing-library's terminal at another width than its fixed 100 columns: its own fake
 * streams, taken from a first render of nothing, with `columns` set before the tree is drawn, so
 * the first frame (and what `<Static>` writes) is at that width too.
 */
import { render as inkRender } from 'ink';
import { render } from 'ink-testing-library';
import type { ReactNode } from 'react';

type TestTerminal = ReturnType<typeof render>;

const mounted: (() => void)[] = [];

export function renderAtWidth(tree: ReactNode, columns: number): TestTerminal {
  const probe = render(<></>);
  probe.unmount();
  const { stdout, stderr, stdin } = probe;
  Object.defineProperty(stdout, 'columns', { value: columns });
  const instance = inkRender(tree, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  mounted.push(() => instance.unmount());
  return { ...probe, rerender: instance.rerender, unmount: instance.unmount, cleanup: instance.cleanup };
}

/** Unmounts what `renderAtWidth` drew, as ink-testing-library's `cleanup` does its own. */
export function cleanupAtWidth(): void {
  for (const unmount of mounted.splice(0)) unmount();
}
