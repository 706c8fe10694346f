"""Card model, notation and catalogues."""

from fusegame.cards.catalogue import (
    CardDataError,
    Catalogue,
    builtin_catalogue,
    catalogue_from_data,
    load_catalogue,
)
from fusegame.cards.model import BombCard, CardShape, FuseCard, Layout, Pred, PredKind, Rel
from fusegame.cards.notation import NotationError, parse, to_text

__all__ = [
    "BombCard", "CardDataError", "CardShape", "Catalogue", "FuseCard", "Layout", "NotationError",
    "Pred", "PredKind", "Rel", "builtin_catalogue", "catalogue_from_data", "load_catalogue",
    "parse", "to_text",
]
