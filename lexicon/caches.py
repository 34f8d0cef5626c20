"""Caches of what is built from the lexicon's data files, and the catalogue views they are keyed
by, for modules outside the lexicon: `data_cache` (an lru cache that `clear_caches` clears and
that keys by the view in force), `withholding(keys)` (a block within which the catalogue lacks
the captions `keys`) and `withheld_captions()`. Defined in `lexicon._data`."""

from __future__ import annotations

from finqa.lexicon._data import clear_caches, data_cache, withheld_captions, withholding

__all__ = ["clear_caches", "data_cache", "withheld_captions", "withholding"]
