"""`python -m pbem.judge run CONFIG [--once]` and `... status CONFIG`, until `pbem judge` (pbem/cli/) has them."""

from __future__ import annotations

import sys
from pathlib import Path

from pbem.errors import PbemError


def main(argv: list[str]) -> int:
    from pbem.judge import config, service, status

    if len(argv) < 2 or argv[0] not in ("run", "status") or (argv[0] == "status" and len(argv) != 2):
        print("usage: python -m pbem.judge run CONFIG [--once] | status CONFIG", file=sys.stderr)
        return 2
    try:
        settings = config.load(Path(argv[1]))
        if argv[0] == "status":
            for line in status.lines(settings):
                print(line)
            return 0
        judge = service.Judge(settings)
        if "--once" in argv[2:]:
            judge.once()
        else:
            judge.run()
    except PbemError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
