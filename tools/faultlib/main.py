"""tools/faults: the entry point. Parses the options, sets up the cluster in a temporary folder,
runs the scenarios in order (or those named), prints a line per scenario and the total, and
removes everything at the end, also on Ctrl-C, SIGTERM and failure."""
import argparse
import os
import random
import shutil
import signal
import sys
import tempfile
import time
import traceback

from . import checks
from .cli import Ledger, find_binary, snapshot_binary
from .cluster import Cluster
from . import (scenario_client_killed, scenario_racing_writers, scenario_server_killed,
               scenario_postgres_killed, scenario_postgres_stopped, scenario_tamper, scenario_roles,
               scenario_forged_facts, scenario_disk_full, scenario_slow_readers, scenario_soak,
               scenario_webhooks_killed)

SCENARIOS = [scenario_client_killed, scenario_racing_writers, scenario_server_killed,
             scenario_postgres_killed, scenario_postgres_stopped, scenario_tamper, scenario_roles,
             scenario_forged_facts, scenario_disk_full, scenario_slow_readers, scenario_webhooks_killed]
# Run only when named (`tools/faults soak --minutes M`): not part of the default run or --quick.
ON_REQUEST = [scenario_soak]
BY_NAME = {module.NAME: module for module in SCENARIOS + ON_REQUEST}


class Context:
    """What a scenario gets: the CLI, the cluster, a seeded random source, a scratch folder, and a
    list of things to stop when the run ends."""

    def __init__(self, ledger, cluster, rng, workdir, options):
        self.ledger, self.cluster, self.rng, self.workdir, self.options = ledger, cluster, rng, workdir, options
        self.cleanups = []

    def on_exit(self, action):
        self.cleanups.append(action)

    def path(self, name):
        return os.path.join(self.workdir, name)

    def run_cleanups(self):
        while self.cleanups:
            action = self.cleanups.pop()
            try:
                action()
            except Exception:
                pass


class ScenarioResult:
    def __init__(self, module):
        self.name, self.invariant = module.NAME, module.INVARIANT
        self.trials, self.failures, self.seconds, self.note = 0, 0, 0.0, ""

    @property
    def passed(self):
        return self.failures == 0 and self.trials > 0

    def line(self):
        state = "ok  " if self.passed else "FAIL"
        note = f" ({self.note})" if self.note else ""
        return (f"{state} {self.name:<18} {self.trials:>6} trials {self.failures:>5} failed {self.seconds:>8.1f} s"
                f"   invariant: {self.invariant}{note}")


def parse(argv):
    parser = argparse.ArgumentParser(
        prog="tools/faults",
        description="Fault-injection suite: kills clients, the server and PostgreSQL, races writers, tampers "
                    "with the stored chain and tries every write path as the app and auditor roles, on an "
                    "embedded cluster of its own in a temporary folder; checks the ledger's invariants after each "
                    "trial. Scenarios: " + ", ".join(BY_NAME) + ".")
    parser.add_argument("scenarios", nargs="*", metavar="SCENARIO", help="run only these (default: all, in order)")
    parser.add_argument("--trials", type=int, help="trials per scenario (default: each scenario's own)")
    parser.add_argument("--seconds", type=float, help="start no new trial of a scenario after S seconds")
    parser.add_argument("--quick", action="store_true", help="a few trials each, for CI (under 4 minutes)")
    parser.add_argument("--seed", type=int, help="random seed (printed; give it again to replay a run)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (server logs, data)")
    parser.add_argument("--minutes", type=int, help="soak: how many minutes of load (default 10)")
    options = parser.parse_args(argv)
    for name in options.scenarios:
        if name not in BY_NAME:
            parser.error(f"unknown scenario {name}; the scenarios are: {', '.join(BY_NAME)}")
    if options.trials is not None and options.trials < 1:
        parser.error("--trials must be at least 1")
    if options.minutes is not None and options.minutes < 2:
        parser.error("--minutes must be at least 2 (a growth needs two samples)")
    return options


def run_scenario(module, ctx):
    result = ScenarioResult(module)
    options = ctx.options
    trials = (options.trials or (getattr(options, "minutes", None) if module.NAME == "soak" else None)
              or (module.QUICK_TRIALS if options.quick else module.DEFAULT_TRIALS))
    ctx.trials = trials
    budget = options.seconds if options.seconds is not None else (module.QUICK_SECONDS if options.quick else None)
    started = time.monotonic()
    print(f"---- {module.NAME}: {module.INVARIANT}", flush=True)
    state = None
    try:
        state = module.setup(ctx, trials)
        if not trials:       # a scenario whose trials are its list of attempts
            trials = getattr(state, "attempts", None) and len(state.attempts) or 1
            ctx.trials = trials
        for number in range(1, trials + 1):
            if budget is not None and time.monotonic() - started > budget and result.trials > 0:
                result.note = f"stopped by the {budget:.0f} s bound"
                break
            result.trials += 1
            try:
                module.trial(ctx, state, number)
            except checks.Violation as violation:
                result.failures += 1
                report_failure(module.NAME, number, str(violation), ctx)
            except KeyboardInterrupt:
                raise
            except Exception:
                result.failures += 1
                report_failure(module.NAME, number, "the trial crashed:\n" + traceback.format_exc(), ctx)
    except KeyboardInterrupt:
        raise
    except Exception:
        result.failures += 1
        report_failure(module.NAME, 0, "the scenario's setup crashed:\n" + traceback.format_exc(), ctx)
    finally:
        try:
            module.teardown(ctx, state)
        except Exception:
            print(f"{module.NAME}: teardown: {traceback.format_exc()}", flush=True)
    if hasattr(module, "summary") and state is not None:
        extra = module.summary(state)
        if extra:
            result.note = (result.note + "; " if result.note else "") + extra
    result.seconds = time.monotonic() - started
    return result


def report_failure(name, number, text, ctx):
    print(f"FAILURE {name} trial {number} (seed {ctx.options.seed}):\n  " + text.replace("\n", "\n  "), flush=True)


def main(argv=None):
    options = parse(sys.argv[1:] if argv is None else argv)
    if options.seed is None:
        options.seed = random.SystemRandom().randrange(1, 1_000_000)
    source = find_binary()
    modules = [BY_NAME[name] for name in options.scenarios] if options.scenarios else SCENARIOS
    workdir = tempfile.mkdtemp(prefix="faults-", dir="/tmp")
    os.chmod(workdir, 0o755)   # the postgres user runs the cluster in here
    binary = snapshot_binary(source, workdir)
    ledger = Ledger(binary, os.path.join(workdir, "cluster"), workdir)
    cluster = Cluster(ledger)
    ctx = Context(ledger, cluster, random.Random(options.seed), workdir, options)

    def terminate(signum, _frame):
        raise KeyboardInterrupt(f"signal {signum}")
    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGHUP, terminate)

    print(f"faults: seed {options.seed}, binary {source} (copied to {binary}), folder {workdir}"
          f"{' (quick)' if options.quick else ''}", flush=True)
    results = []
    interrupted = False
    started = time.monotonic()
    try:
        cluster.start()
        cluster.migrate()
        for module in modules:
            results.append(run_scenario(module, ctx))
            print(results[-1].line(), flush=True)
    except KeyboardInterrupt:
        interrupted = True
        print("\nfaults: interrupted; cleaning up", flush=True)
    except Exception:
        print("faults: the run could not go on:\n" + traceback.format_exc(), flush=True)
        interrupted = True
    finally:
        ctx.run_cleanups()
        ledger.kill_children()
        if options.keep:
            cluster.stop()
            print(f"faults: kept {workdir}", flush=True)
        else:
            cluster.remove()
            shutil.rmtree(workdir, ignore_errors=True)
    print()
    print(f"seed {options.seed}; {time.monotonic() - started:.0f} s in all")
    for result in results:
        print(result.line())
    passed = sum(1 for r in results if r.passed)
    failed = len(results) - passed + (1 if interrupted else 0)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1
