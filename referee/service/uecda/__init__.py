"""The UEC computer-Daihinmin contest protocol (20070, and the 20060 fallback) as a face of
the referee: the contest's own clients play through ``pitboss serve --uecda PORT``, byte
for byte as with the contest's standard server (shared/fixtures/uecda-protocol.md), with
the rules, the deal and the judging taken from the engine."""
