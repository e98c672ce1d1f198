"""Watch a head learn: exact gradients of attention, a small attention-only transformer, plain
optimisers, and three experiments (the toy lookup, why √dₖ, an induction head), in NumPy."""
