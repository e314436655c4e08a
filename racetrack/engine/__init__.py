"""The rules engine: the values a race is made of, a turn's candidates with the rules' verdict
on each, the one transition over whole batches of states, James Bond's gadgets, the shop.
"""
