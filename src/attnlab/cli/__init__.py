"""The `attnlab` command: main.py parses and dispatches; lab.py adds the lab's options."""
