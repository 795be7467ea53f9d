"""The known ways to get alpha-beta wrong, each a named set of :class:`~reference.engine.Rules`.

A mistake is the loop that makes it, run by the one engine; it is named from a student's
search only when that loop reproduces the whole evidence: every position the search entered
(``reference.trace.fitting_mistakes``), or every value it returned on the boards tried
(``grader.checks.causes.known_mistakes``). Each mistake carries the words for the evidence
it is named from; one without words for a kind of evidence is not looked for there.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from reference.engine import Rules, Scope

__all__ = ["COLUMN_MAJOR", "MISTAKES", "REVERSED", "SCOPED", "Mistake", "explored_mistakes", "valued_mistakes"]

COLUMN_MAJOR = (0, 3, 6, 1, 4, 7, 2, 5, 8)
REVERSED = tuple(range(8, -1, -1))


@dataclass(frozen=True)
class Mistake:
    """One known way to get alpha-beta wrong, as the loop that makes it."""

    name: str
    rules: tuple[Rules, ...]
    """The ways students write it (styles); the mistake fits when any of them does."""
    clause: str | None = None
    """Completes "your search explored exactly the positions of an alpha-beta in which ..."."""
    sentence: str | None = None
    """Names it from the values a search returned."""


def _both_styles(rules: Rules) -> tuple[Rules, ...]:
    return (rules, replace(rules, style="bounds"))


MISTAKES: tuple[Mistake, ...] = (
    Mistake(
        "inverted-cut",
        _both_styles(Rules(max_cut="inverted", min_cut="inverted")),
        sentence="The cut-off condition is inverted (for example `beta >= alpha` instead of `beta <= alpha`): "
        "nodes stop after their first child.",
    ),
    Mistake(
        "no-pruning",
        (Rules(prune=False),),
        "nothing is ever pruned, as in plain minimax: check that each node stops once its value reaches the "
        "other bound",
    ),
    Mistake(
        "strict-cutoff",
        (Rules(max_cut="passed", min_cut="passed"),),
        "both MAX and MIN nodes cut off only past the bound (`>` and `<`) instead of on reaching it (`>=` and `<=`)",
    ),
    Mistake(
        "strict-cutoff-max",
        (Rules(max_cut="passed"),),
        "MAX nodes cut off only when their value exceeds beta (`>`) instead of reaching it (`>=`)",
    ),
    Mistake(
        "strict-cutoff-min",
        (Rules(min_cut="passed"),),
        "MIN nodes cut off only when their value is below alpha (`<`) instead of reaching it (`<=`)",
    ),
    Mistake(
        "min-tests-beta",
        (Rules(min_tests="beta"),),
        "MIN nodes compare their value with beta (`value <= beta`) where they should compare it with alpha",
        "A MIN node compares its value with beta (`value <= beta`) where it should compare it with alpha, "
        "so it cuts off moves that matter.",
    ),
    Mistake(
        "max-tests-alpha",
        (Rules(max_tests="alpha"),),
        "MAX nodes compare their value with alpha (`value >= alpha`) where they should compare it with beta",
    ),
    Mistake(
        "window-reset",
        (Rules(pass_alpha=False, pass_beta=False),),
        "the recursive calls receive the initial window instead of the node's alpha and beta",
    ),
    Mistake(
        "alpha-not-passed",
        (Rules(pass_alpha=False),),
        "the recursive calls receive the initial alpha instead of the node's current alpha",
    ),
    Mistake(
        "beta-not-passed",
        (Rules(pass_beta=False),),
        "the recursive calls receive the initial beta instead of the node's current beta",
    ),
    Mistake(
        "children-full-window",
        _both_styles(Rules(pass_alpha=False, pass_beta=False, handed="full")),
        "every recursive call is handed the full window (`-inf, inf`) instead of the node's alpha and beta",
    ),
    Mistake(
        "only-max-prunes",
        _both_styles(Rules(min_cut="never")),
        "only MAX nodes cut off: a MIN node goes on after its value reaches alpha (it has no cut-off test)",
    ),
    Mistake(
        "only-min-prunes",
        _both_styles(Rules(max_cut="never")),
        "only MIN nodes cut off: a MAX node goes on after its value reaches beta (it has no cut-off test)",
    ),
    Mistake(
        "swapped-window-from-max",
        _both_styles(Rules(max_swaps=True)),
        "MAX nodes hand their children the window with alpha and beta swapped (`beta, alpha`)",
    ),
    Mistake(
        "swapped-window-from-min",
        _both_styles(Rules(min_swaps=True)),
        "MIN nodes hand their children the window with alpha and beta swapped (`beta, alpha`)",
    ),
    Mistake(
        "alpha-in-min",
        _both_styles(Rules(min_moves="raise-alpha")),
        "MIN nodes raise alpha instead of lowering beta",
        "A MIN node raises alpha (as a MAX node does) instead of lowering beta.",
    ),
    Mistake(
        "beta-in-max",
        _both_styles(Rules(max_moves="lower-beta")),
        "MAX nodes lower beta instead of raising alpha",
        "A MAX node lowers beta (as a MIN node does) instead of raising alpha.",
    ),
    Mistake(
        "bounds-swapped",
        _both_styles(Rules(max_moves="raise-beta", min_moves="lower-alpha")),
        sentence="Alpha and beta are swapped: MAX nodes update beta and MIN nodes update alpha.",
    ),
    Mistake(
        "no-bound-update",
        _both_styles(Rules(max_moves="none", min_moves="none")),
        sentence="The bounds are never updated, so the window passed to children is always the initial one.",
    ),
    Mistake(
        "reversed-order",
        (Rules(order=REVERSED),),
        "children are tried from the last cell to the first instead of in the assignment's order",
    ),
    Mistake(
        "column-major-order",
        (Rules(order=COLUMN_MAJOR),),
        "children are tried column by column instead of in the assignment's order",
    ),
)


_SCOPES: dict[Scope, str] = {
    "below-root": "everywhere but at the root (the root prunes correctly)",
    "after-first-child": "from each node's second child on (every node's first child is handed the window and "
    "weighed correctly)",
}


def _scoped(mistake: Mistake, scope: Scope) -> Mistake:
    return Mistake(
        f"{mistake.name}, {scope}",
        tuple(replace(rules, scope=scope) for rules in mistake.rules),
        f"{mistake.clause}, {_SCOPES[scope]}",
    )


SCOPED: tuple[Mistake, ...] = tuple(
    _scoped(m, scope)
    for m in MISTAKES
    if m.clause is not None and all(r.order is None for r in m.rules)
    for scope in _SCOPES
)
"""Each pruning mistake named from an exploration, in a part of the tree only: tried when no
mistake everywhere reproduces the exploration (the simpler rule is named first)."""


def explored_mistakes() -> tuple[Mistake, ...]:
    """The mistakes named from a whole exploration, in the order they are named."""
    return tuple(m for m in MISTAKES if m.clause is not None)


def valued_mistakes() -> tuple[Mistake, ...]:
    """The mistakes named from the values a search returned, in the order they are tried."""
    return tuple(m for m in MISTAKES if m.sentence is not None)
