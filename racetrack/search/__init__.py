"""Searching the rules' state graph: the exact solver and the computer drivers.
"""
