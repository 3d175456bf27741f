"""Danger estimates for the discarding seat and the reasons in words.

Pure Python, no Textual and no I/O. A
:class:`~minefield.defense.position.Position` is what one seat sees when it is about to
discard; an estimator turns it into a :class:`~minefield.defense.position.DangerReport`.
:mod:`minefield.defense.danger` is the shape model the bots play with and the fast estimate is
built on. Only :mod:`minefield.rules` is below this package: the bots and the trainer
(:mod:`minefield.trainer`) import it, never the other way round.
"""
