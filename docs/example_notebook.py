"""A notebook-style tour of tankmap's Python API (run it: ``python docs/example_notebook.py``).

Each ``# %%`` block is a notebook cell. The test suite runs this file, so it stays true.
"""

# %% Load a built-in map (or any scenario file) and check it
import tankmap

board = tankmap.load("final-act/flanks-vs-centre")
print(board.title, "-", "legal" if tankmap.is_legal(board) else "illegal")
for v in tankmap.check(board):
    print(" ", v.severity, v.message)

# %% Who can get where, and who can shoot where: labelled DataFrames
result = tankmap.analyse(board)
south_reach = tankmap.reach_frame(result, "south")
north_fire = tankmap.coverage_frame(result, "north")
print("south needs", result.reach[next(iter(result.reach))].turns_to_goal, "rounds to its goal")
print(south_reach.loc[["7", "6", "5"]])  # rows 7..5 as the board shows them
print("cells under north fire:", int((north_fire > 0).sum().sum()))

# %% The moves each unit has now
moves = tankmap.moves(board)
print(moves.groupby("kind").size())

# %% Charts (matplotlib figures) - in a notebook they display by themselves
charts = tankmap.figures(result)
charts["lanes"].savefig("lanes.png") if __name__ == "__main__" else None
print("figures:", ", ".join(sorted(charts)))

# %% Balance from seeded heuristic playouts (same numbers as
#    `tankmap simulate final-act/flanks-vs-centre --policy heuristic --seed 7`)
games = tankmap.simulate(board, games=200, seed=7)
summary = tankmap.balance(games)
print("south wins", summary["wins"]["south"], "north wins", summary["wins"]["north"])
print("balance", round(summary["balance"], 3), "(1 = even)")
print(games.groupby("end").size())
