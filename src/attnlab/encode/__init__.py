"""Encodings at the edge: the core's dataclasses turned into JSON (the API's declared contract)
and into terminal text. arrays.py spells out the numbers JSON lacks; trace_json.py,
lesson_json.py and model_json.py encode one kind of result each; terminal.py and
terminal_lab.py print them.
"""
