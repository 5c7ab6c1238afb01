from pnpgen.cli import main

main()
