"""Every sentence a learner reads, written once: the six beats, the lab's notes, the numbers.

numfmt.py is the one rule for writing a number (the page's format.js follows it); grammar.py
holds possessives and lists; narration.py tells the six beats of a trace; notes.py says what
each lab option did; explanation.py bundles a trace, its focus and its beats.
"""
