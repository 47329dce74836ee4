"""Policies: who decides the orders in a simulated game."""
