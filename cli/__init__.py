"""The rams command line: ``rams <subcommand>`` (main.py), one module per subcommand front end."""
