r"""Catching a mis-scored throw: check a claimed score, and a claimed keep, against the best.

>>> from scorer.rules import get_rules
>>> c = check_claim("255552", 550, get_rules("keeling"))
>>> c.verdict, c.missed
('short', Fraction(450, 1))
>>> print(c.message.replace("; ", ";\n"))
claim 550 is short by 450: the best keep is three pairs (225555) for 1000, with hot dice;
550 is what 5555 scores: three 5s (555) + single 5 (5)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from scorer.dice import Keep, Throw
from scorer.points import format_points as fp
from scorer.points import points_json
from scorer.rules import Rules
from scorer.scoring import Option, Options, options, score_keep

#: The verdicts, in words a program can match on.
VERDICTS = ("right", "short", "too_high", "wrong_points", "zilch")


@dataclass(frozen=True)
class ClaimCheck:
    """The result of checking a claimed score (and keep) for one throw."""

    claim: Fraction
    verdict: str
    message: str
    best: Option | None
    keep: Option | None
    #: points left on the table against the best keep (0 when the claim is the best)
    missed: Fraction

    def to_json(self) -> dict:
        return {
            "claim": points_json(self.claim),
            "verdict": self.verdict,
            "ok": self.verdict == "right",
            "message": self.message,
            "keep": list(self.keep.keep.dice) if self.keep else None,
            "keep_points": points_json(self.keep.points) if self.keep else None,
            "best": list(self.best.keep.dice) if self.best else None,
            "max": points_json(self.best.points) if self.best else 0,
            "missed": points_json(self.missed),
        }


def _best_words(best: Option) -> str:
    hot = ", with hot dice" if best.hot_dice else ""
    return f"the best keep is {best.describe()} for {fp(best.points)}{hot}"


def check_claim(
    throw: Throw | str,
    claim: Fraction | int | float | str,
    rules: Rules,
    keep: Keep | str | None = None,
) -> ClaimCheck:
    """Check ``claim`` points for ``throw``, and that ``keep`` (if given) is legal and scores it.

    Raises :class:`~scorer.errors.IllegalKeep` for a keep that is not in the throw or does not
    score as a whole.
    """
    throw = throw if isinstance(throw, Throw) else Throw.parse(throw)
    claim = Fraction(str(claim)) if not isinstance(claim, Fraction) else claim
    opts: Options = options(throw, rules)
    best = opts.best
    if best is None:
        verdict = "right" if claim == 0 else "zilch"
        msg = (
            f"claim {fp(claim)} is right: {throw} is a zilch"
            if claim == 0
            else f"claim {fp(claim)} is wrong: {throw} is a zilch and scores nothing"
        )
        return ClaimCheck(claim, verdict, msg, None, None, Fraction(0))

    if keep is not None:
        chosen = score_keep(throw, keep, rules)
        kept = f"keep {chosen.keep} scores {fp(chosen.points)} ({chosen.describe()})"
        missed = best.points - chosen.points
        if claim != chosen.points:
            verdict = "wrong_points"
            msg = f"claim {fp(claim)} is wrong: {kept}"
        elif missed:
            verdict = "short"
            msg = (
                f"claim {fp(claim)} is right for that keep, but short by {fp(missed)}: "
                f"{_best_words(best)}"
            )
        else:
            verdict = "right"
            msg = f"claim {fp(claim)} is right: {kept}, the best there is"
        if verdict == "wrong_points" and missed:
            msg += f"; {_best_words(best)}"
        return ClaimCheck(claim, verdict, msg, best, chosen, missed)

    matching = [o for o in opts if o.points == claim]
    if claim == best.points:
        return ClaimCheck(
            claim,
            "right",
            f"claim {fp(claim)} is right: {_best_words(best)}",
            best,
            best,
            Fraction(0),
        )
    if claim > best.points:
        return ClaimCheck(
            claim,
            "too_high",
            f"claim {fp(claim)} is too high: the most {throw} can score is {fp(best.points)} "
            f"({best.describe()})",
            best,
            None,
            Fraction(0),
        )
    missed = best.points - claim
    if matching:
        m = matching[0]
        why = f"; {fp(claim)} is what {m.keep} scores: {m.describe()}"
        return ClaimCheck(
            claim,
            "short",
            f"claim {fp(claim)} is short by {fp(missed)}: {_best_words(best)}{why}",
            best,
            m,
            missed,
        )
    return ClaimCheck(
        claim,
        "wrong_points",
        f"claim {fp(claim)} matches no keep of {throw}: {_best_words(best)}",
        best,
        None,
        missed,
    )
