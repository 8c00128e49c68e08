"""Tag bindings: which card each NFC tag is stuck on (and whose copy it is)."""

from __future__ import annotations

from collections.abc import Callable

from sqlite_utils import Database

from companion.errors import StoreError
from companion.storage.records import Binding, Locked, clean_uid, writing


class TagBindings:
    """The tag bindings of an :class:`~companion.storage.store.EventStore` (``store.bindings``)."""

    def __init__(self, locked: Locked, *, clock: Callable[[], float]) -> None:
        self._locked = locked
        self._clock = clock

    def bind(
        self, uid: str, card: str, owner: str | None = None, *, rebind: bool = False
    ) -> Binding:
        """Enrol a tag as a card. :raises StoreError: if it is bound to another card (unless
        ``rebind``): a tag stuck on the wrong card would corrupt every game it is played in."""
        uid = clean_uid(uid)
        with self._locked() as db, writing(db):
            current = binding_row(db, uid)
            if current is not None and current.card != card and not rebind:
                raise StoreError(
                    f"tag {uid} is already bound to {current.card}; unbind it first"
                    f" or rebind it to {card}"
                )
            if current is not None and (current.card, current.owner) == (card, owner):
                return current
            binding = Binding(uid, card, owner, self._clock())
            db.execute(
                "INSERT OR REPLACE INTO bindings (uid, card, owner, bound) VALUES (?, ?, ?, ?)",
                [uid, card, owner, binding.bound],
            )
        return binding

    def get(self, uid: str) -> Binding | None:
        """The card a tag is bound to, if any."""
        with self._locked() as db:
            return binding_row(db, clean_uid(uid))

    def all(self) -> dict[str, Binding]:
        """Every binding, by uid."""
        with self._locked() as db:
            rows = db.execute("SELECT uid, card, owner, bound FROM bindings ORDER BY uid")
            return {row[0]: Binding(*row) for row in rows.fetchall()}

    def unbind(self, uid: str) -> bool:
        """Forget a tag's binding; returns whether there was one."""
        with self._locked() as db, writing(db):
            return db.execute("DELETE FROM bindings WHERE uid = ?", [clean_uid(uid)]).rowcount > 0


def binding_row(db: Database, uid: str) -> Binding | None:
    row = db.execute("SELECT uid, card, owner, bound FROM bindings WHERE uid = ?", [uid]).fetchone()
    return None if row is None else Binding(*row)
