"""The step machine under every engine's state, in the style of OpenSpiel.

A state is always waiting for one thing: a chance outcome
(:meth:`StepMachine.is_chance_node`, :meth:`StepMachine.chance_outcomes`) or
one seat's decision (:meth:`StepMachine.current_player`,
:meth:`StepMachine.legal_actions`); :meth:`StepMachine.apply_action`
supplies it.

Inside, a state works through a stack of *steps*, tuples whose first item
names the step. A subclass lists its steps in one :class:`Steps` table,
``STEPS``: for a step named ``x``, either an automatic step
``auto["x"](self, *args)`` that runs at once and may schedule more, or a
decision of ``seat``, ``decisions["x"]``: its legal actions
(``choices(self, seat, *args)``) and how to apply one
(``do(self, action, seat, *args)``). Chance steps are
``("chance", purpose, options, *args)`` and resolve through
``chances[purpose](self, outcome, *args)``, every option equally likely.
A decision with no legal action is skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

if TYPE_CHECKING:
    from typing_extensions import Unpack

from deduce.errors import DeduceError

#: ``current_player()`` of a chance node and of a finished game.
CHANCE = -1
TERMINAL = -4

#: An action, as an engine's decisions and chance nodes define them (each
#: engine names its own: ``abbey.rules.engine.Action``, ...).
Action: TypeAlias = Any
#: A step: its name (a key of the engine's ``STEPS``), then its arguments.
Step: TypeAlias = "tuple[str, Unpack[tuple[Any, ...]]]"
#: An automatic step or a chance resolution: called with the state first.
Handler = Callable[..., None]


@dataclass(frozen=True)
class Decision:
    """A decision step: its legal actions and how one is applied."""

    choices: Callable[..., list[Action]]
    do: Handler


@dataclass(frozen=True)
class Steps:
    """An engine's table of steps, by name (see the module docstring)."""

    auto: Mapping[str, Handler]
    decisions: Mapping[str, Decision]
    chances: Mapping[str, Handler]


class StepMachine:
    """Chance nodes, decisions and a stack of steps (see the module docstring).

    Subclasses call :meth:`_start` with their first steps once their own
    fields are set, and set ``over`` when the game ends.
    """

    STEPS: ClassVar[Steps]
    over: bool
    _waiting: Step | None
    _todo: list[Step]

    def _start(self, *steps: Step) -> None:
        """Schedule the first steps and run until the first chance node or decision."""
        self.over = False
        self._waiting = None
        self._todo = []
        self._then(*steps)
        self._advance()

    # ----------------------------------------------------------- interface

    def current_player(self) -> int:
        """The seat to decide, ``CHANCE`` or ``TERMINAL``."""
        if self.over:
            return TERMINAL
        assert self._waiting is not None
        return CHANCE if self._waiting[0] == "chance" else self._waiting[1]

    def is_chance_node(self) -> bool:
        """Whether the next action is a chance outcome."""
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self.over

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """The possible outcomes of this chance node, each with its probability."""
        assert self._waiting is not None and self._waiting[0] == "chance"
        options = self._waiting[2]
        return [(o, 1 / len(options)) for o in options]

    def legal_actions(self) -> list[Action]:
        """The actions the current player may take (chance outcomes at a chance node)."""
        if self.over:
            return []
        assert self._waiting is not None
        step = self._waiting
        if step[0] == "chance":
            return list(step[2])
        return self.STEPS.decisions[step[0]].choices(self, *step[1:])

    def apply_action(self, action: Action) -> None:
        """Resolve the pending chance outcome or decision with ``action``."""
        step = self._waiting
        if step is None or self.over:
            raise DeduceError("the game is over")
        if action not in self.legal_actions():
            raise DeduceError(f"illegal action {action!r} at {step[0]}")
        self._waiting = None
        if step[0] == "chance":
            self.STEPS.chances[step[1]](self, action, *step[3:])
        else:
            self.STEPS.decisions[step[0]].do(self, action, *step[1:])
        self._advance()

    def pending(self) -> Step | None:
        """The step waiting for an action (None once the game is over)."""
        return None if self.over else self._waiting

    # ------------------------------------------------------------ the stack

    def _advance(self) -> None:
        """Run automatic steps until one needs an action or the game ends."""
        while not self.over and self._waiting is None:
            step = self._todo.pop()
            handler = self.STEPS.auto.get(step[0])
            if handler is None:
                self._waiting = step
                if not self.legal_actions():  # a decision with no option passes
                    self._waiting = None
            else:
                handler(self, *step[1:])

    def _then(self, *steps: Step) -> None:
        """Schedule ``steps`` to run next, in this order."""
        self._todo.extend(reversed(steps))

    def _chance(self, purpose: str, options: Sequence[Any], *data: Any) -> None:
        """Wait for a uniformly random choice among ``options``."""
        self._then(("chance", purpose, tuple(options), *data))
