"""postgres-stopped: pg_ctl stop -m immediate during CLI appends (odd trials) and serve
appends (even trials); see pgfault.py."""
from . import pgfault

NAME = "postgres-stopped"
INVARIANT = ("pg_ctl stop -m immediate under CLI and serve appends: every acknowledged event stored, "
             "whole batches only, verify passes; serve answers 503 + Retry-After while down, recovers unrestarted")
DEFAULT_TRIALS = 20
QUICK_TRIALS = 2
QUICK_SECONDS = 40
PREFIX = "ps"


def setup(ctx, trials):
    return pgfault.setup(ctx, trials, PREFIX)


def trial(ctx, state, number):
    pgfault.trial(ctx, state, number, "immediate", PREFIX)


def teardown(ctx, state):
    pgfault.teardown(ctx, state)


def summary(state):
    return pgfault.summary(state)
