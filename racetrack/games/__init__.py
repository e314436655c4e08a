"""The games: a race and a game of Graph Trees under one protocol, who races, championships,
time-trial records, what a move does before the click, recordings and their shelves.
"""
