"""The ``atout`` command's first code (its console script, ``atout.client.start:main``).

From here on a Ctrl-C or a SIGTERM ends the command with one line and its exit status (130,
143), never a traceback — also during the 0.1 to 0.2 s the rest of the command takes to
import, which :mod:`.cli` alone cannot cover (its imports run before any of its code).
Only the interpreter's own start-up (``site``) comes before this module.
"""

import sys


def main() -> int:
    exit_status = None
    try:
        from .interrupt import exit_status, stop_on_sigterm

        stop_on_sigterm()
        from .cli import main as command
    except KeyboardInterrupt:
        print("atout: interrupted", file=sys.stderr)
        return 130 if exit_status is None else exit_status(130)
    return command()


if __name__ == "__main__":
    sys.exit(main())
