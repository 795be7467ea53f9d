# %% [markdown]
# # Week 5 lab: game trees on strings
#
# A position is a string of 9 characters, row by row: `'X'`, `'O'` or `'.'` for an empty cell,
# e.g. `"X.O......"`. Strings cannot change, so a move builds a new string.
# Values are from X's side: +1 X wins, -1 O wins, 0 draw.
#
# The global `nodes` counts how many positions a search looks at; reset it before a search.

# %%
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8),
         (0, 3, 6), (1, 4, 7), (2, 5, 8),
         (0, 4, 8), (2, 4, 6)]


def wins(s, p):
    return any(s[a] == p and s[b] == p and s[c] == p for a, b, c in LINES)


def is_full(s):
    return '.' not in s


def moves(s):
    return [i for i, ch in enumerate(s) if ch == '.']


def play(s, i, p):
    return s[:i] + p + s[i + 1:]


def other(p):
    return 'O' if p == 'X' else 'X'


def show(s):
    print('\n'.join(s[r:r + 3] for r in (0, 3, 6)))

# %% [markdown]
# ## Minimax
# `minimax(s, p)` is the value of `s` with `p` to move.

# %%
nodes = 0


def minimax(s, p):
    global nodes
    nodes += 1
    if wins(s, 'X'):
        return 1
    if wins(s, 'O'):
        return -1
    if is_full(s):
        return 0
    values = [minimax(play(s, i, p), other(p)) for i in moves(s)]
    if p == 'X':
        return max(values)
    return min(values)

# %% [markdown]
# ## Alpha-beta
# Same value as `minimax` whenever it lies strictly between `alpha` and `beta`; stops looking at
# the remaining moves as soon as they cannot matter.

# %%
def alphabeta(s, p, alpha, beta):
    global nodes
    nodes += 1
    if wins(s, 'X'):
        return 1
    if wins(s, 'O'):
        return -1
    if is_full(s):
        return 0
    if p == 'X':
        value = -2
        for i in moves(s):
            value = max(value, alphabeta(play(s, i, p), 'O', alpha, beta))
            if value >= beta:
                break
            alpha = max(alpha, value)
        return value
    else:
        value = 2
        for i in moves(s):
            value = min(value, alphabeta(play(s, i, p), 'X', alpha, beta))
            if value <= alpha:
                break
            beta = min(beta, value)
        return value


def best_move(s, p):
    """The index 0-8 where p should play."""
    best, best_value = None, None
    for i in moves(s):
        v = alphabeta(play(s, i, p), other(p), -2, 2)
        if best is None or (p == 'X' and v > best_value) or (p == 'O' and v < best_value):
            best, best_value = i, v
    return best

# %%
for search in (minimax, alphabeta):
    nodes = 0
    value = search('X...O....', 'X') if search is minimax else search('X...O....', 'X', -2, 2)
    print(search.__name__, 'value', value, 'nodes', nodes)
print('X plays', best_move('X...O....', 'X'))
