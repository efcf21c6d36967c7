"""Runs one client so that every process it starts is counted: the benchmark's process tree.

A client that ends its MCP servers without waiting for them (or that leaves them running) hands
them to init when it exits, and their CPU time never reaches the kernel's count of the children
the benchmark waits for. As a child subreaper (prctl PR_SET_CHILD_SUBREAPER, which Node does not
expose), this process is where such orphans go: it waits for every one of them, and its count of
reaped children is then the CPU time of the client's whole tree, its own start-up left out.

Usage: python3 subreaper.py <command> [args...], with file descriptor 3 open for writing. It writes,
one per line: `start` just before the client is started, `exit <code>` when the client itself has
exited, then `left <n>` (processes of the tree still running a moment after, which it ends) and
`cpu <ms>` (user + system time of every process of the tree) once all are gone. It exits with the
client's exit code.
"""
import ctypes
import os
import resource
import signal
import sys

PR_SET_CHILD_SUBREAPER = 36
# How long processes of the tree may take to finish exiting after the client itself has: a client
# that ended them has them gone by then; whatever still runs was left behind, and is ended.
GRACE_SECONDS = 1.0


def report(line):
    os.write(3, (line + "\n").encode())


def wait_all():
    """Reaps every child (the client's orphans among them) until none is left."""
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


def end_children():
    """SIGKILLs the direct children of this process (orphans are reparented to it); how many."""
    me = str(os.getpid())
    ended = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] == me and fields[0] != "Z":
            try:
                os.kill(int(name), signal.SIGKILL)
                ended += 1
            except ProcessLookupError:
                pass
    return ended


def main():
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("subreaper: prctl(PR_SET_CHILD_SUBREAPER) failed")
    report("start")
    client = os.fork()
    if client == 0:
        os.close(3)
        os.execvp(sys.argv[1], sys.argv[1:])
    _, status = os.waitpid(client, 0)
    code = os.waitstatus_to_exitcode(status)
    report("exit %d" % code)
    left = [0]

    def end_what_is_left(_signum, _frame):
        # Past the grace period, and again at each tick after it (an ended process's own children
        # come to this process in turn); the wait below goes on and reaps what was ended.
        left[0] += end_children()

    signal.signal(signal.SIGALRM, end_what_is_left)
    signal.setitimer(signal.ITIMER_REAL, GRACE_SECONDS, 0.1)
    wait_all()
    signal.setitimer(signal.ITIMER_REAL, 0)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    report("left %d" % left[0])
    report("cpu %d" % round((usage.ru_utime + usage.ru_stime) * 1000))
    sys.exit(code if code >= 0 else 128 - code)


main()
