"""The three experiments: learn the toy lookup, why √dₖ, an induction head forms."""
