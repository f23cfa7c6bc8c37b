"""The solved strategy tables, cached on disk between runs of the ``zilch`` command.

A solve takes about a second; a ``zilch advise`` at the table should answer at once. The
tables are stored as a plain ``.npz`` (loaded with ``allow_pickle=False``) under a key made of
the solver's version and the full rules value, in ``$ZILCH_CACHE_DIR`` or
``~/.cache/zilch-scorer``. A file that cannot be read is solved again and replaced.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from pathlib import Path

import numpy as np

from scorer.rules import Rules
from scorer.strategy import (
    DEFAULT_CAP,
    SOLVER_VERSION,
    Solution,
    solution_arrays,
    solution_from_arrays,
    solve,
)

log = logging.getLogger(__name__)


def cache_dir() -> Path:
    env = os.environ.get("ZILCH_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "zilch-scorer"


def table_path(rules: Rules, cap: int = DEFAULT_CAP) -> Path:
    key = hashlib.sha256(f"{SOLVER_VERSION}|{cap}|{rules!r}".encode()).hexdigest()[:20]
    return cache_dir() / f"strategy-v{SOLVER_VERSION}-{rules.name}-{key}.npz"


def load_or_solve(rules: Rules, cap: int = DEFAULT_CAP) -> Solution:
    """The solved tables for ``rules``: from the disk cache, or solved and stored."""
    path = table_path(rules, cap)
    if path.exists():
        try:
            with np.load(path, allow_pickle=False) as data:
                return solution_from_arrays(rules, {k: data[k] for k in data.files})
        except (OSError, ValueError, KeyError) as e:
            log.warning("strategy tables %s unreadable (%s); solving again", path, e)
    sol = solve(rules, cap)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npz.tmp")
        with os.fdopen(fd, "wb") as f:
            np.savez_compressed(f, **solution_arrays(sol))
        os.replace(tmp, path)
        log.info("stored strategy tables in %s", path)
    except OSError as e:  # a read-only home: the answer is still right, only slower next time
        log.warning("could not store strategy tables in %s: %s", path, e)
    return sol
