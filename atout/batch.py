"""``atout.batch``: kept for the imports users have; puzzle sets are solved by
:mod:`atout.runner.batch` (``solve_all``, ``BatchReport``, ``BatchError``)."""

from atout.runner.batch import BatchError, BatchReport, is_terminal, solve_all, solve_line

__all__ = ["solve_all", "BatchReport", "BatchError", "solve_line", "is_terminal"]
