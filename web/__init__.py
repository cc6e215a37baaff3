"""rams serve: the card table in the browser (docs/web.md). Needs the web extra: pip install -e '.[web]'."""
