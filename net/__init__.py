"""LAN play for Tavolo: zeroconf discovery, the peer-to-peer msgpack protocol, lockstep peers
and fair dice.  Built so far: ``fairdice`` (commitments, reveals, exact mapping onto chance
outcomes), ``framing`` (length-prefixed msgpack frames with limits) and ``messages`` (the
message shapes, checked field by field).  Discovery and the peers arrive with the LAN play
issue.  ``net`` plugs into match sessions
as remote players and as the source of shared dice, never into the rules engine."""
