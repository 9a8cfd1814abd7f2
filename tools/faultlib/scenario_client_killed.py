"""client-killed: `append --batch-size N` of a simulated history (every other trial with --bulk,
the owner's COPY path of decision 0042), SIGKILLed at a random moment."""
import os
import signal
import time

from . import checks
from .checks import Violation
from .history import check_prefix, full_append_seconds, simulated

NAME = "client-killed"
INVARIANT = ("after SIGKILL of `append --batch-size N` (odd trials `--bulk`): whole batches only, gapless, verify passes; "
             "the same command again completes the history once")
DEFAULT_TRIALS = 50
QUICK_TRIALS = 2
QUICK_SECONDS = 60
BATCH_SIZES = (7, 50, 100, 250, 500)


class State:
    def __init__(self, history, full_seconds):
        self.history, self.full_seconds = history, full_seconds
        self.kills_mid_run = 0
        self.bulk_kills_mid_run = 0


def setup(ctx, trials):
    history = simulated(ctx)
    return State(history, full_append_seconds(ctx, history))


def trial(ctx, state, number):
    log = f"ck-{number}"
    history = state.history
    batch = ctx.rng.choice(BATCH_SIZES)
    delay = ctx.rng.uniform(0.0, state.full_seconds)
    bulk = number % 2 == 1
    argv = ("append", "--log", log, "--batch-size", batch, "--file", history.path) + (("--bulk",) if bulk else ())
    process = ctx.ledger.start(*argv)
    time.sleep(delay)
    finished_first = process.poll() is not None
    if not finished_first:
        try:
            os.killpg(process.pid, signal.SIGKILL)
            state.kills_mid_run += 1
            state.bulk_kills_mid_run += bulk
        except ProcessLookupError:
            finished_first = True
    out, err = process.communicate()
    where = (f"log {log}, batch size {batch}{' (--bulk)' if bulk else ''}, SIGKILL after {delay:.2f} s"
             f"{' (the run had already finished)' if finished_first else ''}; command: "
             f"{ctx.ledger.run_line(*argv)}")
    try:
        rows = checks.read_log(ctx.ledger, ctx.cluster, log)
        checks.check_gapless(rows, "after the kill")
        kept = check_prefix(rows, history, "after the kill")
        if kept % batch != 0 and kept != len(history):
            raise Violation(f"after the kill: {kept} events stored, not a whole number of batches of {batch} "
                            f"(a partial batch is visible: batch {kept // batch + 1} has {kept % batch} of its events)")
        if rows:
            checks.verify(ctx.ledger, log)
        again = ctx.ledger.run(*argv)
        if not again.ok:
            raise Violation("the same command again failed:\n" + again.describe())
        rows = checks.read_log(ctx.ledger, ctx.cluster, log)
        checks.check_gapless(rows, "after the rerun")
        kept_after = check_prefix(rows, history, "after the rerun")
        distinct = len({row[1] for row in rows})
        if kept_after != len(history) or distinct != len(history) or rows[-1][0] != len(history):
            raise Violation(f"after the rerun: {kept_after} events, {distinct} distinct ids, max position "
                            f"{rows[-1][0] if rows else 0}; the input has {len(history)} lines")
        checks.verify(ctx.ledger, log)
    except Violation as violation:
        raise Violation(f"{where}\n{violation}\nkilled command's stderr: {err.decode(errors='replace')[-500:]}")


def teardown(ctx, state):
    pass


def summary(state):
    return f"{state.kills_mid_run} kills landed mid-run ({state.bulk_kills_mid_run} of them during a --bulk load)"
