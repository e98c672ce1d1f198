"""The local web app: the page, its static files and the JSON API over the same core as the CLI."""
