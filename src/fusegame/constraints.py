"""Placement legality, safety and feasibility for one card, compiled into bit-mask tables.

A card's filled state is a tuple with one entry per slot: the *real* die type on it, or -1.
Die types are small integers (``fusegame.dice.die_type``) and sets of types are Python ints used
as bit masks, so the hot path is table look-ups and ``&``. Results are memoised per state: games
revisit the same card states again and again.

Reference: docs/rules.md D.1 (the checks in order), D.5 (order), D.6 (feasibility), D.9 (a constraint is
checked once, when its last die goes on), D.10 (safe dice).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Final

from fusegame.cards.model import CardShape, Clause, Comparison, Group, GroupTest, PredKind, Rel
from fusegame.dice import COLOUR_SETS, N_TYPES, type_colours, type_face
from fusegame.rng import Rng

State = tuple[int, ...]
#: An empty slot in a card state (a ``Final`` literal: the compiled engine inlines it).
EMPTY: Final = -1
_MEMO_LIMIT = 20_000  # card states remembered per card before its memo starts afresh (bounds memory)


def set_memo_limit(states: int) -> None:
    """How many card states each compiled card, and each card's model in ``fusegame.bots.value``,
    remembers before its memo starts afresh. Answers never depend on it, only speed and memory: the
    default suits simulations; ``fuse serve``, which plays for weeks, keeps its memory flat with a
    smaller one."""
    global _MEMO_LIMIT
    if states < 1:
        raise ValueError(f"a memo holds at least one state, not {states}")
    _MEMO_LIMIT = states


def memo_limit() -> int:
    """The current ``set_memo_limit``."""
    return _MEMO_LIMIT


@cache
def _rel_tables(rel: Rel) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For a relation ``left rel right``: left type -> mask of right types, and the reverse."""
    fwd = [0] * N_TYPES
    rev = [0] * N_TYPES
    for t1 in range(N_TYPES):
        c1, n1 = type_colours(t1), type_face(t1)
        for t2 in range(N_TYPES):
            if rel.holds(c1, n1, type_colours(t2), type_face(t2)):
                fwd[t1] |= 1 << t2
                rev[t2] |= 1 << t1
    return tuple(fwd), tuple(rev)


ClauseFn = Callable[[Sequence[int]], bool]
#: a clause as its alternatives: each test, and whether it reads faces (else colours only)
Alternatives = tuple[tuple[ClauseFn, bool], ...]
#: FACE_TYPES[f]: the mask of the die types showing face ``f + 1``, whatever their colours
FACE_TYPES: Final = tuple(sum(1 << (c * 6 + f) for c in range(N_TYPES // 6)) for f in range(6))
#: COLOUR_TYPES[c]: the mask of the die types of colour index ``c``, whatever their faces
COLOUR_TYPES: Final = tuple(sum(1 << (c * 6 + f) for f in range(6)) for c in range(N_TYPES // 6))


def _compile_atom(atom: Comparison | GroupTest) -> ClauseFn:
    """A fast test over a sequence of die types (faces are ``t % 6 + 1``, colours by table)."""
    if isinstance(atom, GroupTest):
        ms = atom.members
        g = atom.group
        if g is Group.SAME_NUMBER:
            def same_number(a: Sequence[int]) -> bool:
                face = a[ms[0]] % 6
                for m in ms:
                    if a[m] % 6 != face:
                        return False
                return True
            return same_number
        if g is Group.DIFF_NUMBER:
            return lambda a: len({a[m] % 6 for m in ms}) == len(ms)
        if g is Group.SAME_COLOUR:
            def same(a: Sequence[int]) -> bool:
                common = 31
                for m in ms:
                    common &= COLOUR_SETS[a[m] // 6]
                return common != 0
            return same
        pairs = [(x, y) for i, x in enumerate(ms) for y in ms[i + 1:]]
        return lambda a: all(not COLOUR_SETS[a[x] // 6] & COLOUR_SETS[a[y] // 6] for x, y in pairs)
    exprs = [tuple((sg, s, k) for sg, s, k in e) for e in atom.exprs]
    ops = atom.ops

    def compare(a: Sequence[int]) -> bool:
        vals = [sum(sg * (a[s] % 6 + 1 if s >= 0 else k) for sg, s, k in e) for e in exprs]
        for op, x, y in zip(ops, vals, vals[1:]):
            if op == "=" and x != y or op == "<" and not x < y or op == ">" and not x > y:
                return False
        return True
    return compare


def _reads_faces(atom: Comparison | GroupTest) -> bool:
    """Whether an alternative reads the dice's faces (else their colours only)."""
    return isinstance(atom, Comparison) or atom.group in (Group.SAME_NUMBER, Group.DIFF_NUMBER)


def compile_clause(clause: Clause) -> ClauseFn:
    fns = [_compile_atom(a) for a in clause.alts]
    if len(fns) == 1:
        return fns[0]

    def either(a: Sequence[int]) -> bool:
        for f in fns:
            if f(a):
                return True
        return False
    return either


#: Die classes that one relation between two slots treats alike (``CompiledCard._between``).
_Group = tuple[int, int, list[int], dict[int, list[int]]]


class CompiledCard:
    """One card's requirements as tables, for one set of die types in play.

    ``types_in_play`` is the mask of die types the game's dice can show; the feasibility rule asks
    whether *some* dice of those types could complete the card (docs/rules.md G-19: availability in the
    bag is ignored). ``feasibility=False`` is the "strict FUSE" option.
    """

    def __init__(self, shape: CardShape, types_in_play: int, feasibility: bool = True) -> None:
        self.shape = shape
        self.n = n = shape.size
        self.feasibility = feasibility
        self.types_in_play = types_in_play
        self.supports = tuple(s.supports for s in shape.slots)
        self.first = next((i for i, s in enumerate(shape.slots) if s.first), -1)
        self.last = tuple(s.last for s in shape.slots)
        self.split_slot = tuple(s.pred.kind is PredKind.SPLIT for s in shape.slots)
        self.pred = tuple(s.pred.type_mask() for s in shape.slots)
        self.supported_by: tuple[tuple[int, ...], ...] = tuple(
            tuple(j for j in range(n) if i in self.supports[j]) for i in range(n))
        # pair_out[i]: (j, tab) with tab[type at i] = mask of types allowed at j
        out: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(n)]
        for r in shape.relations:
            fwd, rev = _rel_tables(r.rel)
            out[r.a].append((r.b, fwd))
            out[r.b].append((r.a, rev))
        self.pair_out = tuple(tuple(x) for x in out)
        # pair_in[j]: (i, tab) for every pair_out[i] entry that constrains slot j
        into: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(n)]
        for i in range(n):
            for j, tab in self.pair_out[i]:
                into[j].append((i, tab))
        self.pair_in = tuple(tuple(x) for x in into)
        self.clauses = shape.clauses
        compiled = [(c.slots, compile_clause(c)) for c in shape.clauses]
        # clauses_of[i]: (the clause's other slots, its test) for every clause that involves slot i
        self.clauses_of: tuple[tuple[tuple[tuple[int, ...], ClauseFn], ...], ...] = tuple(
            tuple((tuple(x for x in sl if x != i), fn) for sl, fn in compiled if i in sl) for i in range(n))
        # the same clauses as their alternatives, each reading faces only or colours only (True:
        # faces), so that the types a slot takes may be found face by face and colour by colour
        alternatives = [(c.slots, tuple((_compile_atom(a), _reads_faces(a)) for a in c.alts))
                        for c in shape.clauses]
        self.alternatives_of: tuple[tuple[tuple[tuple[int, ...], Alternatives], ...], ...] = (
            tuple(tuple((tuple(x for x in sl if x != i), alts) for sl, alts in alternatives if i in sl)
                  for i in range(n)))
        #: the colour indices of the types in play
        self.colour_indices = tuple(c for c in range(N_TYPES // 6) if types_in_play & COLOUR_TYPES[c])
        reads_colour = any(s.pred.reads_colour for s in shape.slots) or any(
            r.rel.reads_colour for r in shape.relations) or any(c.reads_colour for c in shape.clauses)
        reads_number = any(s.pred.reads_number for s in shape.slots) or any(
            r.rel.reads_number for r in shape.relations) or any(c.reads_number for c in shape.clauses)
        # Types that no constraint on this card can tell apart are interchangeable for the
        # feasibility search: keep one representative of each class.
        rep_of: dict[tuple[object, ...], int] = {}
        canon = list(range(N_TYPES))
        reps = 0
        for t in range(N_TYPES):
            if not types_in_play >> t & 1:
                continue
            key = (tuple(p >> t & 1 for p in self.pred),
                   type_colours(t) if reads_colour else 0, type_face(t) if reads_number else 0)
            if key not in rep_of:
                rep_of[key] = t
                reps |= 1 << t
            canon[t] = rep_of[key]
        #: canon[t]: the representative of t's class. Every answer about a card is the same for
        #: equivalent types, so callers may key states by representatives (far fewer states).
        self.canon: tuple[int, ...] = tuple(canon)
        self._reps = reps
        self.search_dom = tuple(p & reps for p in self.pred)
        # A slot that no relation or clause names, and that some type in play may fill, never
        # decides feasibility: states that differ only there, or only in types of one class,
        # share one answer (random roll-outs on loose cards meet thousands of such states)
        bound = {x for r in shape.relations for x in (r.a, r.b)} | {x for c in shape.clauses for x in c.slots}
        self._free: tuple[bool, ...] = tuple(i not in bound for i in range(n))
        self._loose: tuple[bool, ...] = tuple(f and d != 0 for f, d in zip(self._free, self.search_dom))
        # (and the legal slots of a state ask of a free slot only whether it is filled)
        #: no slot goes first or last or rests on others: every empty slot is open
        self._unordered = self.first < 0 and not any(self.last) and not any(self.supports)
        self.empty: State = (EMPTY,) * n
        self._legal: dict[State, list[tuple[int, ...] | None]] = {}
        self._legal_temp: dict[tuple[State, int], tuple[int, ...]] = {}
        self._single: dict[State, list[int]] = {}
        self._removable: dict[State, tuple[int, ...]] = {}  # is_legal answers: bit s+32 known, bit s legal
        self._feasible: dict[State, bool] = {}
        self._open: dict[State, tuple[int, ...]] = {}
        self._completing: dict[State, int] = {}
        self._groups: dict[tuple[int, int, tuple[int, ...]], list[_Group]] = {}

    def key(self, state: State) -> State:
        """``state`` with every die type replaced by its class representative."""
        canon = self.canon
        return tuple(t if t == EMPTY else canon[t] for t in state)

    # -- order (D.5) ------------------------------------------------------------------------
    def is_open(self, state: State, slot: int) -> bool:
        """May a die go on ``slot`` now, as far as order and support go?"""
        if state[slot] != EMPTY:
            return False
        if self.first >= 0 and state[self.first] == EMPTY:
            return slot == self.first
        if self.last[slot] and any(state[j] == EMPTY for j in range(self.n) if j != slot):
            return False
        return all(state[j] != EMPTY for j in self.supports[slot])

    def open_slots(self, state: State) -> tuple[int, ...]:
        """The slots a die may go on now as far as order and support go (remembered per state:
        every die type asks)."""
        hit = self._open.get(state)
        if hit is None:
            if self._unordered:
                hit = self._open[state] = tuple(s for s in range(self.n) if state[s] == EMPTY)
            else:
                hit = self._open[state] = tuple(s for s in range(self.n) if self.is_open(state, s))
        return hit

    # -- legality (D.1) ---------------------------------------------------------------------
    def legal_slots(self, state: State, t_real: int, t_eff: int | None = None) -> tuple[int, ...]:
        """The slots a die of type ``t_real`` may go on (``t_eff``: its temporary colour type)."""
        if t_eff is not None and t_eff != t_real:
            key = t_real * 128 + t_eff
            hit = self._legal_temp.get((state, key))
            if hit is None:
                if len(self._legal_temp) >= _MEMO_LIMIT:  # bounded like the others
                    self._legal_temp.clear()
                hit = self._legal_temp[(state, key)] = tuple(
                    s for s in range(self.n) if self._legal_uncached(state, s, t_real, t_eff))
            return hit
        table = self._legal.get(state)
        if table is None:
            table = self._new_table(state)
        slots = table[t_real]
        if slots is None:
            slots = table[t_real] = self._slots_for(state, t_real)
        return slots

    def _slots_for(self, state: State, t: int) -> tuple[int, ...]:
        """``legal_slots`` of a die with no temporary colour, worked out (``placements`` that leave
        the card completable)."""
        slots = self.placements(state, t)
        if not self.feasibility or not slots:
            return slots
        return tuple(s for s in slots if self.feasible(state[:s] + (t,) + state[s + 1:]))

    def completing_types(self, state: State) -> int:
        """For a state with one empty slot: the mask of the class representatives (``canon``) that
        may go there, each of which completes the card. ``legal_slots`` answers the same type by
        type; this answers them all at once, for models of work that meet many such states once
        each."""
        alike = self._alike(state)  # as for legal slots
        hit = self._completing.get(alike)
        if hit is not None:
            return hit
        b = state.index(EMPTY)
        mask = self.related_types(state, b) & self._reps
        # the clauses on the last slot (every other slot is filled)
        clauses = self.alternatives_of[b]
        if clauses and mask:
            mask &= self.clause_types(list(state), b, [alts for _, alts in clauses])
        if len(self._completing) >= _MEMO_LIMIT:
            self._completing.clear()
        self._completing[alike] = mask
        return mask

    def related_types(self, state: State, slot: int) -> int:
        """The mask of die types ``slot``'s predicate and its relations with the dice already on
        the card allow there (its clauses not asked)."""
        mask = self.pred[slot]
        for i, tab in self.pair_in[slot]:
            if state[i] != EMPTY:
                mask &= tab[state[i]]
        return mask

    def clause_types(self, trial: list[int], b: int, clauses: Sequence[Alternatives]) -> int:
        """The mask of die types that ``clauses`` (each given as its alternatives) allow on slot
        ``b`` of ``trial``, every other slot they name being filled. Each alternative reads faces
        only or colours only, so it is tried on six faces or on the colours in play, never type by
        type; ``trial[b]`` is left changed."""
        mask = -1
        for alts in clauses:
            allowed = 0
            for fn, by_face in alts:
                if by_face:
                    for f in range(6):
                        trial[b] = f  # (any colour: the alternative reads the face only)
                        if fn(trial):
                            allowed |= FACE_TYPES[f]
                else:
                    for c in self.colour_indices:
                        trial[b] = c * 6  # (any face: the alternative reads the colour only)
                        if fn(trial):
                            allowed |= COLOUR_TYPES[c]
            mask &= allowed
            if not mask:
                return 0
        return mask

    def two_left(self, state: State, reps: tuple[int, ...]) -> list[tuple[int, list[int]]]:
        """For a state with two empty slots: ``(fits, places)`` pairs, ``places`` being the indices
        ``i`` of the class representatives ``reps[i]`` that may go on one of the slots and leave a
        state whose ``completing_types`` is ``fits`` (an index is met once for each slot it may go
        on). The same placements as ``legal_slots`` type by type, found without its memos or a
        feasibility search (with one slot left, a placement is feasible exactly when some type
        completes the card), and grouped by what they leave: models of work meet many such states
        once each, and value each ``fits`` once. (The lists may be the card's own: read them
        only.)"""
        a = state.index(EMPTY)
        b = state.index(EMPTY, a + 1)
        feasibility = self.feasibility
        out: list[tuple[int, list[int]]] = []
        for s, r in ((a, b), (b, a)):
            if not self.is_open(state, s):
                continue
            # the types s takes: its predicate, the relations with the dice already on the card
            # (r is empty: no relation with it counts), the clauses whose other slots are filled
            takes = self.related_types(state, s)
            filled = [alts for others, alts in self.alternatives_of[s]
                      if EMPTY not in [state[x] for x in others]]
            if filled and takes:
                takes &= self.clause_types(list(state), s, filled)
            if not takes:
                continue
            if self.clauses_of[r]:  # r's clauses read the die on s: asked die by die
                found: dict[int, list[int]] = {}
                for i, t in enumerate(reps):
                    if takes >> t & 1:
                        fits = self.completing_types(state[:s] + (t,) + state[s + 1:])
                        if fits or not feasibility:
                            found.setdefault(fits, []).append(i)
                out.extend(found.items())
                continue
            # the classes r takes by the relations with the dice already on the card (s is empty
            # still), narrowed by the relations between s and r, which depend on the die on s
            # only through the groups of ``_between`` (a die's colour, say)
            left = self.related_types(state, r) & self._reps
            for between, members, places, some in self._between(s, r, reps):
                fits = left & between
                if fits or not feasibility:
                    taken = takes & members
                    if taken == members:
                        out.append((fits, places))
                    elif taken:
                        chosen = some.get(taken)  # (a slot takes the same classes again and again)
                        if chosen is None:
                            if len(some) >= 64:
                                some.clear()
                            chosen = some[taken] = [i for i in places if taken >> reps[i] & 1]
                        out.append((fits, chosen))
        return out

    def _between(self, s: int, r: int, reps: tuple[int, ...]) -> list[_Group]:
        """The classes of ``reps`` grouped by what the relations from slot ``s`` to slot ``r``
        allow on ``r`` once a die of the class is on ``s`` (one group when none relates them).
        Each group: that mask of types, the mask of its classes, their indices in ``reps``, and a
        memo of the indices a slot takes, by the classes it takes. Fixed for the card, remembered."""
        key = (s, r, reps)
        hit = self._groups.get(key)
        if hit is None:
            tabs = [tab for i, tab in self.pair_in[r] if i == s]
            groups: dict[int, list[int]] = {}
            for i, t in enumerate(reps):
                mask = -1
                for tab in tabs:
                    mask &= tab[t]
                groups.setdefault(mask, []).append(i)
            hit = self._groups[key] = [(mask, sum(1 << reps[i] for i in places), places, {})
                                       for mask, places in groups.items()]
        return hit

    def placements(self, state: State, t: int) -> tuple[int, ...]:
        """The slots a die of type ``t`` may go on as far as order, its predicate, its relations
        and clauses with the dice already on the card go: ``legal_slots`` without the feasibility
        rule (nor its memo), for models of work that see for themselves whether the state a
        placement leaves can be completed."""
        pred = self.pred
        pair_out = self.pair_out
        out = []
        for s in self.open_slots(state):
            if not pred[s] >> t & 1:
                continue
            for j, tab in pair_out[s]:
                tj = state[j]
                if tj != EMPTY and not tab[t] >> tj & 1:
                    break
            else:
                if not self.clauses_of[s] or self._relations_ok(state, s, t):
                    out.append(s)
        return tuple(out)

    def slot_table(self, state: State) -> list[tuple[int, ...] | None]:
        """Per-state cache of legal slots indexed by die type (None: not computed yet).

        Callers on hot paths index it directly and fall back to ``legal_slots`` on a miss.
        """
        table = self._legal.get(state)
        if table is None:
            table = self._new_table(state)
        return table

    def entries(self) -> int:
        """The states the card's memos hold now (what ``forget`` empties)."""
        return (len(self._legal) + len(self._single) + len(self._feasible) + len(self._removable)
                + len(self._open) + len(self._completing) + len(self._legal_temp))

    def forget(self) -> None:
        """Empty the card's memos of states (legal slots, feasibility, safety, open slots, the dice
        that complete it): the answers stay the same, only the time to find them again is spent."""
        self._legal.clear()
        self._single.clear()
        self._feasible.clear()
        self._removable.clear()
        self._open.clear()
        self._completing.clear()
        self._legal_temp.clear()

    def alike(self, state: State) -> State:
        """The key shared by states alike in every way the card's rules can see (a die on a slot
        no relation or clause names counts only as there; types of one class are one): whatever
        follows from a state follows from every state alike."""
        return self._alike(state)

    def _alike(self, state: State) -> State:
        """The key shared by states alike in every way the card's rules can see: a die on a slot
        no relation or clause names counts only as there, and types of one class as one."""
        free, canon = self._free, self.canon
        return tuple(t if t == EMPTY else 0 if free[i] else canon[t] for i, t in enumerate(state))

    def _new_table(self, state: State) -> list[tuple[int, ...] | None]:
        if len(self._legal) >= _MEMO_LIMIT:  # long simulations: keep memory bounded
            self.forget()
        alike = self._alike(state)
        table = self._legal.get(alike)
        if table is None:
            table = self._legal[alike] = [None] * N_TYPES
        self._legal[state] = table
        return table

    def is_legal(self, state: State, slot: int, t_real: int, t_eff: int | None = None) -> bool:
        """May a die of type ``t_real`` go on ``slot``? Answers one slot (cheaper than
        ``legal_slots`` on a state seen for the first time) and remembers the answer."""
        if t_eff is not None and t_eff != t_real:
            return slot in self.legal_slots(state, t_real, t_eff)
        table = self._legal.get(state)
        if table is None:
            table = self._new_table(state)
        row = table[t_real]
        if row is not None:
            return slot in row
        if not 0 <= slot < self.n:
            return False
        bits = self._single.get(state)
        if bits is None:
            bits = self._single[state] = [0] * N_TYPES
        b = bits[t_real]
        if b >> (slot + 32) & 1:
            return bool(b >> slot & 1)
        ok = self._legal_uncached(state, slot, t_real, t_real)
        bits[t_real] = b | 1 << (slot + 32) | int(ok) << slot
        return ok

    def why_illegal(self, state: State, slot: int, t_real: int, t_eff: int | None = None) -> tuple[str, int]:
        """Why the die may not go on ``slot``: a refusal code (``rules.errors.REFUSALS``: ``slot_filled``,
        ``slot_icon``...; '' when it may) and the slot that must be filled first (-1 when none)."""
        t_eff = t_real if t_eff is None else t_eff
        if not 0 <= slot < self.n:
            return "slot_missing", -1
        if state[slot] != EMPTY:
            return "slot_filled", -1
        if not self.is_open(state, slot):
            if self.first >= 0 and state[self.first] == EMPTY:
                return "slot_first", self.first
            if self.last[slot]:
                return "slot_last", -1
            return "slot_beneath", -1
        if not self._pred_ok(slot, t_real, t_eff):
            return "slot_icon", -1
        if not self._relations_ok(state, slot, t_eff):
            return "slot_relation", -1
        if self.feasibility and not self.feasible(self._with(state, slot, t_real)):
            return "slot_dead", -1
        return "", -1

    def _pred_ok(self, slot: int, t_real: int, t_eff: int) -> bool:
        # "must be a split die" looks at the physical die; every other icon at its current colour.
        return bool(self.pred[slot] >> (t_real if self.split_slot[slot] else t_eff) & 1)

    def _relations_ok(self, state: State, slot: int, t_eff: int) -> bool:
        for j, tab in self.pair_out[slot]:
            tj = state[j]
            if tj != EMPTY and not tab[t_eff] >> tj & 1:
                return False
        for others, fn in self.clauses_of[slot]:
            if all(state[s] != EMPTY for s in others):
                trial = list(state)
                trial[slot] = t_eff
                if not fn(trial):
                    return False
        return True

    def _legal_uncached(self, state: State, slot: int, t_real: int, t_eff: int) -> bool:
        if not self.is_open(state, slot) or not self._pred_ok(slot, t_real, t_eff):
            return False
        if not self._relations_ok(state, slot, t_eff):
            return False
        return not self.feasibility or self.feasible(self._with(state, slot, t_real))

    @staticmethod
    def _with(state: State, slot: int, t: int) -> State:
        return state[:slot] + (t,) + state[slot + 1:]

    # -- safety (D.10) ----------------------------------------------------------------------
    def removable(self, state: State) -> tuple[int, ...]:
        """Filled slots whose die a penalty may take: not under another die, not a must-be-first
        slot, and not one whose removal would leave the card impossible (D.6.3)."""
        hit = self._removable.get(state)
        if hit is not None:
            return hit
        out = []
        for s in range(self.n):
            if state[s] == EMPTY or s == self.first:
                continue
            if any(state[j] != EMPTY for j in self.supported_by[s]):
                continue
            if self.feasibility and not self.feasible(self._with(state, s, EMPTY)):
                continue
            out.append(s)
        hit = self._removable[state] = tuple(out)
        return hit

    # -- feasibility (D.6) ------------------------------------------------------------------
    def feasible(self, state: State) -> bool:
        """Can the empty slots be filled with die types in play so that every pending
        constraint holds? (Constraints whose slots are all filled were checked when placed.)"""
        hit = self._feasible.get(state)
        if hit is None:
            if len(self._feasible) >= 2 * _MEMO_LIMIT:
                # bounded on its own: it holds each state and its key, and grew past every other
                # memo of a card (a simulation worker's 1.2 million entries after 200 games)
                self._feasible.clear()
            loose = self._loose
            canon = self.canon
            key = tuple(EMPTY if loose[i] or t == EMPTY else canon[t] for i, t in enumerate(state))
            hit = self._feasible.get(key)
            if hit is None:
                hit = self._feasible[key] = self._search(key)
            self._feasible[state] = hit
        return hit

    def _search(self, state: State) -> bool:
        empties = [i for i in range(self.n) if state[i] == EMPTY]
        if not empties:
            return True
        dom: dict[int, int] = {}
        for e in empties:
            dom[e] = self.search_dom[e]
        for i in range(self.n):
            ti = state[i]
            if ti != EMPTY:
                for j, tab in self.pair_out[i]:
                    if state[j] == EMPTY:
                        dom[j] &= tab[ti]
        if not all(dom.values()):
            return False
        order = sorted(empties, key=lambda e: bin(dom[e]).count("1"))
        return self._backtrack(0, order, dom, list(state))

    def _backtrack(self, k: int, order: list[int], dom: dict[int, int], assign: list[int]) -> bool:
        if k == len(order):
            return True
        e = order[k]
        d = dom[e]
        while d:
            low = d & -d
            d ^= low
            t = low.bit_length() - 1
            assign[e] = t
            ok = True
            for others, fn in self.clauses_of[e]:
                for s in others:
                    if assign[s] == EMPTY:
                        break
                else:
                    if not fn(assign):
                        ok = False
                        break
            saved: list[tuple[int, int]] = []
            if ok:
                for j, tab in self.pair_out[e]:
                    if assign[j] == EMPTY:
                        nd = dom[j] & tab[t]
                        saved.append((j, dom[j]))
                        dom[j] = nd
                        if not nd:
                            ok = False
                            break
            if ok and self._backtrack(k + 1, order, dom, assign):
                assign[e] = EMPTY
                for j, old in saved:
                    dom[j] = old
                return True
            for j, old in saved:
                dom[j] = old
        assign[e] = EMPTY
        return False

    def completion(self, state: State | None = None) -> State | None:
        """One full assignment of die types that completes the card from ``state``, or None."""
        state = self.empty if state is None else state
        assign = list(state)

        # fill in an order the card allows: repeatedly pick any open empty slot
        def go_ordered() -> bool:
            cur = tuple(assign)
            opens = [s for s in range(self.n) if cur[s] == EMPTY and self.is_open(cur, s)]
            if not opens:
                return all(x != EMPTY for x in cur)
            s = opens[0]
            d = self.pred[s] & self.types_in_play
            while d:
                low = d & -d
                d ^= low
                t = low.bit_length() - 1
                if self.is_legal(cur, s, t):
                    assign[s] = t
                    if go_ordered():
                        return True
                    assign[s] = EMPTY
            return False

        return tuple(assign) if go_ordered() else None


def random_partial_state(card: CompiledCard, rng: Rng) -> State:
    """A state reached by a random number of random legal placements of die types in play (for
    tests and benchmarks that need realistic partial cards)."""
    types = [t for t in range(N_TYPES) if card.types_in_play >> t & 1]
    state = card.empty
    for _ in range(rng.below(card.n)):
        options = [(s, t) for s in range(card.n) for t in types if card.is_legal(state, s, t)]
        if not options:
            break
        s, t = options[rng.below(len(options))]
        state = state[:s] + (t,) + state[s + 1:]
    return state
