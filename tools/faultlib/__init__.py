"""The fault-injection suite behind tools/faults: shared helpers (cluster, CLI, server, checks,
report) and one module per scenario (scenario_*.py). See docs/reliability.md ("The fault-injection suite")."""
