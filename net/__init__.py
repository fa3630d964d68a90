"""LAN play for Tavolo: zeroconf discovery, the peer-to-peer msgpack protocol, lockstep peers
and fair dice.  The package is reserved by the project layout; its modules arrive with the
LAN play issue.  It will plug into match sessions as remote players and as the source of
shared dice, and never into the rules engine (see docs/ARCHITECTURE.md)."""
