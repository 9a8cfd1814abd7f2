"""API keys for the HTTP scenarios (`consent-ledger keys create`)."""


def create_key(ledger, log, role="ingest"):
    outcome = ledger.run("keys", "create", "--log", log, "--role", role, "--label", "tools/faults")
    token = outcome.out.strip().splitlines()[-1] if outcome.ok and outcome.out.strip() else ""
    if not token.startswith("cl_"):
        raise RuntimeError("keys create failed:\n" + outcome.describe())
    return token
