"""Harnesses for the tests, the benchmarks and the soak: private LANs of network namespaces
(``netns``), real ``python -m net`` peers as child processes (``peer_process``), hand-driven
clients (``clients``), seeded matches of the log alone (``tables``) and the fuzzers of the
match log and of a real host (``fuzz_log``, ``fuzz_host``).  Nothing in the game imports them
(as aiohttp's ``test_utils``: shipped with the package, used only by what tests it)."""
