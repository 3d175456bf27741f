"""Danger estimates for the discarding seat, the reasons in words, and the trainer's drills.

Pure Python, no Textual and no I/O (ARCHITECTURE: ``minefield/defense/``). A
:class:`~minefield.defense.position.Position` is what one seat sees when it is about to
discard; an estimator turns it into a :class:`~minefield.defense.position.DangerReport`.
"""
