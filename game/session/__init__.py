"""Match sessions: who sits where, where the dice come from, the record, undo and saves.

A session drives the rules engine for the client, the AI players and the network alike; it
never draws anything on screen (``game/client`` does) and never opens a socket (``net`` does).
"""
