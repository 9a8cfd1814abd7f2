"""A simulated history (`consent-ledger simulate`) written once per run, with its event ids."""
import json
import os

from .checks import Violation


class History:
    """The NDJSON file and, per line, its event id."""

    def __init__(self, path, ids):
        self.path, self.ids = path, ids
        self.line_of = {event_id: index for index, event_id in enumerate(ids)}

    def __len__(self):
        return len(self.ids)


def simulated(ctx, families=100, days=30, seed=7):
    path = ctx.path(f"history-{families}-{days}-{seed}.ndjson")
    if not os.path.exists(path):
        outcome = ctx.ledger.run("simulate", "--families", families, "--days", days, "--seed", seed)
        if not outcome.ok:
            raise RuntimeError("simulate failed:\n" + outcome.describe())
        with open(path, "w") as handle:
            handle.write(outcome.out)
    ids = []
    with open(path) as handle:
        for line in handle:
            if line.strip():
                ids.append(json.loads(line)["eventId"])
    return History(path, ids)


def check_prefix(rows, history, what):
    """The stored events are the history's first k lines, line i at position i + 1 (so in input
    order, none twice, none from elsewhere). Returns k; the caller checks it is whole batches."""
    for position, event_id, _version, _stream in rows:
        line = history.line_of.get(event_id)
        if line is None:
            raise Violation(f"{what}: position {position} holds event {event_id}, which is not in the input")
        if line + 1 != position:
            raise Violation(f"{what}: input line {line + 1} (event {event_id}) is at position {position}, "
                            f"expected {line + 1}")
    return len(rows)


def full_append_seconds(ctx, history):
    """How long one complete `append --batch-size 100` of the history takes (measured once per run,
    into a log of its own), so that kills land within a run."""
    if getattr(ctx, "full_append_seconds", None) is None:
        outcome = ctx.ledger.run("append", "--log", "calibrate", "--batch-size", 100, "--file", history.path)
        if not outcome.ok:
            raise RuntimeError("calibration append failed:\n" + outcome.describe())
        ctx.full_append_seconds = outcome.seconds
        print(f"     {len(history)} events; a full append takes {outcome.seconds:.1f} s", flush=True)
    return ctx.full_append_seconds
