"""Abstract game trees as a game of the engine (`reference.game_tree`), the trees hypothesis
draws (`reference.game_strategies.game_trees`), and the best-leaf search (6.034's
``dfs_maximizing``) on them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from reference.errors import IllegalMove
from reference.game_search import GameSearchSpec, alphabeta_search, best_leaf_search, minimax_search
from reference.game_strategies import game_trees
from reference.game_tree import TreeGame, TreeNode


def leaf(label: str, value: int) -> TreeNode:
    return TreeNode(label, value)


TREE = TreeNode(
    "A", None, (TreeNode("B", None, (leaf("D", 3), leaf("E", 5))), TreeNode("C", None, (leaf("F", 2), leaf("G", 9))))
)


def spec(game: TreeGame, **fields: object) -> GameSearchSpec:
    return GameSearchSpec(evaluate=lambda state, _: game.node(state).value or 0, evaluate_terminals=True, **fields)  # type: ignore[arg-type]


def test_minimax_on_a_drawn_tree_takes_the_first_best_and_counts_the_leaves() -> None:
    game = TreeGame(TREE)
    found = minimax_search(game, (), spec(game))
    assert (found.value, game.labels((), found.path), found.evaluations) == (3, ["A", "B", "D"], 4)
    assert alphabeta_search(game, (), spec(game)).evaluations == 3  # F = 2 <= 3 cuts G off


def test_the_best_leaf_is_the_greatest_the_first_of_equals_unless_the_last_is_asked() -> None:
    tree = TreeNode("A", None, (TreeNode("B", None, (leaf("D", 9),)), leaf("C", 9), leaf("E", -1)))
    game = TreeGame(tree)
    first = best_leaf_search(game, (), spec(game))
    assert (first.value, game.labels((), first.path), first.evaluations) == (9, ["A", "B", "D"], 3)
    last = best_leaf_search(game, (), spec(game, tie="last"))
    assert game.labels((), last.path) == ["A", "C"]


def test_a_child_that_is_not_there_is_an_illegal_move() -> None:
    with pytest.raises(IllegalMove):
        TreeGame(TREE).result((), 2)


@settings(max_examples=60, deadline=None)
@given(game_trees(max_depth=3, max_children=3, low=-2, high=2))
def test_drawn_trees_are_labelled_in_preorder_and_alphabeta_keeps_minimax_value(tree: TreeNode) -> None:
    labels = [node.label for node in tree.nodes()]
    # A to Z, then N26, N27...: a tree 3 deep with 3 children a node has up to 40 nodes
    assert labels == [chr(ord("A") + i) if i < 26 else f"N{i}" for i in range(len(labels))]
    assert len(tree.children) >= 2
    assert all(node.value is not None for node in tree.nodes() if not node.children)
    game = TreeGame(tree)
    plain = minimax_search(game, (), spec(game))
    pruned = alphabeta_search(game, (), spec(game))
    assert pruned.value == plain.value and pruned.path == plain.path
    assert pruned.evaluations <= plain.evaluations
    best = best_leaf_search(game, (), spec(game))
    assert best.value == max(node.value or 0 for node in tree.nodes() if not node.children)
