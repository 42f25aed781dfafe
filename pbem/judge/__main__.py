from pbem.judge.cli import main

main()
