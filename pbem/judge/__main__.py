"""`python -m pbem.judge COMMAND`, until `pbem judge` (pbem/cli/) has them:

    run CONFIG [--once]        the judge by mail
    status CONFIG              the games it holds
    pre-receive CONFIG         git hooks (stdin: git's lines); install-hooks writes them
    post-receive CONFIG
    install-hooks REPO CONFIG
    ci KEY [REPO]              hosted CI: check the whole history, then the referee's duties
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from pbem.errors import PbemError, UsageError


def _updates() -> list[tuple[str, str, str]]:
    lines = [line.split() for line in sys.stdin.read().splitlines() if line.strip()]
    return [(a, b, c) for a, b, c in lines]


def main(argv: list[str]) -> int:
    from pbem.judge import config, git, service, status

    try:
        command, args = (argv[0], argv[1:]) if argv else ("", [])
        if command == "run" and args:
            judge = service.Judge(config.load(Path(args[0])))
            if "--once" in args[1:]:
                judge.once()
            else:
                judge.run()
        elif command == "status" and len(args) == 1:
            for line in status.lines(config.load(Path(args[0]))):
                print(line)
        elif command in ("pre-receive", "post-receive") and len(args) == 1:
            settings = config.load(Path(args[0]))
            os.environ["PBEM_HOME"] = str(settings.home)
            repo = Path(os.environ.get("GIT_DIR", "."))
            if command == "pre-receive":
                problems = git.pre_receive(repo, _updates(), settings.git.games)
                for problem in problems:
                    print(f"Error: {problem}", file=sys.stderr)
                return 1 if problems else 0
            log: list[str] = []
            made = git.post_receive(repo, _updates(), settings.key, f"refs/heads/{settings.git.branch}",
                                    settings.git.games, log)
            for line in log + ([f"judge: committed {made[:12]}: pull to see it"] if made else []):
                print(line, file=sys.stderr)
        elif command == "install-hooks" and len(args) == 2:
            for hook in git.install_hooks(Path(args[0]), Path(args[1]).resolve()):
                print(f"Wrote {hook}")
        elif command == "ci" and len(args) in (1, 2):
            repo = Path(args[1] if len(args) == 2 else ".")
            ci_log: list[str] = []
            written = git.ci_referee(repo, Path(args[0]).resolve(), log=ci_log)
            for line in ci_log:
                print(line)
            print(f"Wrote {len(written)} game file{'s' if len(written) != 1 else ''}.")
        else:
            raise UsageError(__doc__.strip().split("\n\n", 1)[1] if __doc__ else "bad usage")
    except PbemError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
