"""Small abstract game trees for trying the searches by hand (given to students; do not edit).

A GameTree node has a label, a static value (the leaves always; inner nodes when a heuristic
should see one) and children. Wrapped in an AbstractGameState with the four functions below,
a tree is a game: the searches walk it exactly as they walk Connect Four.

    tree = GameTree("A", children=[GameTree("B", 3), GameTree("C", -2)])
    state = AbstractGameState(tree, tree_is_over, tree_children, tree_endgame_value)
"""


class GameTree:
    def __init__(self, label="", value=None, children=()):
        self.label = label
        self.value = value
        self.children = list(children)

    def is_leaf(self):
        return not self.children

    def __eq__(self, other):
        return (
            isinstance(other, GameTree)
            and (self.label, self.value) == (other.label, other.value)
            and self.children == other.children
        )

    def __hash__(self):
        return hash((self.label, self.value, len(self.children)))

    def __str__(self):
        inside = " ".join(str(child) for child in self.children)
        value = "" if self.value is None else f":{self.value}"
        return f"({self.label}{value}{' ' + inside if inside else ''})"


def tree(label, value=None, *children):
    """``tree("A", None, tree("B", 3), tree("C", -2))``: a shorter way to write one."""
    return GameTree(label, value, children)


def tree_is_over(node):
    return node.is_leaf()


def tree_children(node):
    return list(node.children)


def tree_endgame_value(node, is_current_player_maximizer):
    """A leaf's value is the maximizer's, whoever is to move."""
    return node.value


def tree_heuristic(node, is_current_player_maximizer):
    """An inner node's static value, the maximizer's (0 where it has none)."""
    return node.value if node.value is not None else 0
