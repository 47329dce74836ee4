"""The inspector dock: the selected piece's properties (unit kind, stats, name, facing,
damage, armour, wreck; terrain lane and arrow) or, with nothing selected, the scenario's
title, author, notes and options. Every edit goes through an undoable command and is
refused (with its reason in the status bar) if it would break a rule."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from tankmap.editor import commands as cmd
from tankmap.editor import editing
from tankmap.editor.context import EditorContext
from tankmap.editor.dialogs import (
    ADVANCED_HEADING,
    option_label,
    option_value,
    option_widget,
    ordered_options,
)
from tankmap.editor.document import Document
from tankmap.editor.palette_data import ruleset_title
from tankmap.editor.pieces import Piece, new_errors, reason_text
from tankmap.editor.stats import kind_title, stat_rows, stats_html
from tankmap.rules.errors import TankmapError
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.ruleset import Ruleset
from tankmap.rules.scenario import Terrain, Unit


def stats_text(ruleset: Ruleset, kind: str) -> str:
    """The unit kind's stats as plain "Label: value" lines (see ``editor.stats``)."""
    return "\n".join(f"{k}: {v}" for k, v in stat_rows(ruleset, kind))


def side_text(ruleset: Ruleset, side: Side) -> str:
    """The side as the game names it: ``White`` in Tank Chess, else ``South``/``North``
    (files say ``south``/``north``: docs/formats.md)."""
    return ruleset.side_names()[side]


class InspectorDock(QWidget):
    """Rebuilt whenever the selection or the document changes."""

    def __init__(self, ctx: EditorContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.outer = QVBoxLayout(self)
        self.outer.setContentsMargins(0, 0, 0, 0)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.outer.addWidget(self.scroll_area)
        self.body: QWidget | None = None
        self.fields: dict[str, QWidget] = {}
        self._key: object = None
        self._form: object = None
        self._layout = QFormLayout()
        # the unit and scenario forms while hidden: kind -> (key, body, layout, fields)
        self._kept: dict[str, tuple[object, QWidget, QFormLayout, dict[str, QWidget]]] = {}
        self.target: Piece | None = None
        self._doc: Document | None = None
        ctx.document_replaced.connect(self.attach)
        self.attach()

    def attach(self) -> None:
        if self._doc is not None:
            for sig in (self._doc.changed, self._doc.selection_changed):
                try:
                    sig.disconnect(self.rebuild)
                except (RuntimeError, TypeError):
                    pass
        self._doc = self.ctx.doc
        self.ctx.doc.changed.connect(self.rebuild)
        self.ctx.doc.selection_changed.connect(self.rebuild)
        self.rebuild()

    # --- building ---------------------------------------------------------------------------
    def rebuild(self, force: bool = False) -> None:
        """Show the selection (or the scenario). A unit form is reused and refilled when
        another unit is selected (building widgets is the slow part of an edit)."""
        doc = self.ctx.doc
        s = doc.scenario
        key = (
            (doc, doc.selection)
            if doc.selection
            else (
                doc,
                s.ruleset,
                s.board,
                s.title,
                s.author,
                s.notes,
                tuple(sorted(s.options.items())),
            )
        )
        if key == self._key and not force:
            return
        self._key = key
        if force:
            self._forget()  # made anew: a refused edit resets the fields
        sel = doc.selection
        if len(sel) == 1 and isinstance(sel[0], Unit):
            if self._form != ("unit", doc):
                if not self._use_body("unit", doc):
                    self._unit_form(self._layout, doc)
                self._form = ("unit", doc)
            self._fill_unit(sel[0])
            return
        self._form = None
        if not sel:
            if not self._use_body("scenario", key):
                self._scenario(self._layout)
            return
        self._use_body("", None)
        if len(sel) == 1 and isinstance(sel[0], Terrain):
            self._terrain(self._layout, sel[0])
        else:
            self._layout.addRow(QLabel(f"{len(sel)} pieces selected"))

    def _use_body(self, kind: str, key: object) -> bool:
        """Show the body kept as ``kind`` (``unit`` or ``scenario``) if it was made for
        ``key`` (True), else a new empty one, kept as ``kind`` unless that is "" (False).

        Placing a unit and undoing swaps the scenario form and the unit form on every
        edit; building them anew each time cost about a quarter of the edit."""
        old = self.scroll_area.takeWidget()
        if old is not None:
            old.hide()
            if all(old is not body for _, body, _, _ in self._kept.values()):
                old.deleteLater()
        kept = self._kept.get(kind)
        if kept is not None and kept[0] == key:
            _, self.body, self._layout, self.fields = kept
            self.scroll_area.setWidget(self.body)
            return True
        if kept is not None:
            self._kept.pop(kind)[1].deleteLater()  # made for another document or scenario
        self.body = QWidget()
        self._layout = QFormLayout(self.body)
        self._layout.setContentsMargins(6, 6, 6, 6)
        # long option names move their field below the label instead of widening the dock
        self._layout.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.fields = {}
        self.scroll_area.setWidget(self.body)
        if kind:
            self._kept[kind] = (key, self.body, self._layout, self.fields)
        return False

    def _forget(self) -> None:
        """Drop the kept forms (the one shown goes when the next body replaces it)."""
        for _, body, _, _ in self._kept.values():
            if body is not self.scroll_area.widget():
                body.deleteLater()
        self._kept.clear()
        self._form = None

    def _add(self, form: QFormLayout, key: str, label: str, w: QWidget) -> None:
        w.setObjectName(f"inspector-{key}")
        # narrow docks shrink the fields instead of scrolling sideways (spin boxes with
        # huge ranges would otherwise ask for 150 px)
        w.setMinimumWidth(48)
        self.fields[key] = w
        form.addRow(label, w)

    def _unit_form(self, form: QFormLayout, doc: Any) -> None:
        for key in ("kind", "side", "cell", "stats"):
            label = QLabel()
            label.setWordWrap(True)
            if key == "stats":
                label.setTextFormat(Qt.TextFormat.RichText)
            self._add(form, key, key.title(), label)
        name = QLineEdit()
        name.editingFinished.connect(
            lambda: self._set(self.target, name=name.text().strip() or None)
        )
        self._add(form, "name", "Name", name)
        facing = QComboBox()
        facing.addItem("—", None)
        allowed = (
            list(Facing) if doc.palette.facings != 4 else [f for f in Facing if f.is_orthogonal]
        )
        for f in allowed:
            facing.addItem(f.name, f)
        facing.activated.connect(lambda i: self._set(self.target, facing=facing.itemData(i)))
        if doc.palette.facings == 0:
            facing.setEnabled(False)
            facing.setToolTip("units of this game have no facing")
        self._add(form, "facing", "Facing", facing)
        damage = QSpinBox()
        damage.setRange(0, 9)
        damage.editingFinished.connect(lambda: self._set(self.target, damage=damage.value()))
        self._add(form, "damage", "Damage", damage)
        armour = QSpinBox()
        armour.setRange(0, 99)
        armour.setSpecialValueText("default")
        armour.editingFinished.connect(
            lambda: self._set(self.target, armour=armour.value() or None)
        )
        self._add(form, "armour", "Armour", armour)
        wreck = QCheckBox("knocked out, left as a wreck")
        wreck.toggled.connect(lambda on: self._set(self.target, wreck=on))
        self._add(form, "wreck", "Wreck", wreck)

    def _fill_unit(self, u: Unit) -> None:
        doc = self.ctx.doc
        self.target = u
        f = self.fields
        values: dict[str, Any] = {
            "kind": kind_title(doc.ruleset, u.kind),
            "side": side_text(doc.ruleset, u.side),
            "cell": doc.scenario.board.cell_name(u.cell),
            "stats": stats_html(stat_rows(doc.ruleset, u.kind)),
        }
        for key, text in values.items():
            f[key].setText(text)  # type: ignore[attr-defined]
        for w in f.values():
            w.blockSignals(True)
        f["name"].setText(u.name or "")  # type: ignore[attr-defined]
        facing = f["facing"]
        facing.setCurrentIndex(max(0, facing.findData(u.facing)))  # type: ignore[attr-defined]
        f["damage"].setValue(u.damage)  # type: ignore[attr-defined]
        f["armour"].setValue(u.armour or 0)  # type: ignore[attr-defined]
        f["wreck"].setChecked(u.wreck)  # type: ignore[attr-defined]
        for w in f.values():
            w.blockSignals(False)

    def _terrain(self, form: QFormLayout, t: Terrain) -> None:
        board = self.ctx.doc.scenario.board
        try:
            kind = self.ctx.doc.palette.entry(t.kind).label
        except KeyError:
            kind = t.kind
        rs = self.ctx.doc.ruleset
        kind_label = QLabel(kind)
        kind_label.setWordWrap(True)
        form.addRow("Kind", kind_label)
        form.addRow(
            "Side", QLabel(side_text(rs, t.side) if t.side is not None else "neutral (shared)")
        )
        cells = QLabel(" ".join(board.cell_name(c) for c in t.cells))
        cells.setWordWrap(True)
        form.addRow("Cells", cells)
        if t.shape:
            form.addRow("Shape", QLabel(t.shape))
        if t.lane is not None or t.arrow is not None or t.kind == "minefield":
            lane = QComboBox()
            lane.addItem("—", None)
            for c in t.cells:
                lane.addItem(board.cell_name(c), c)
            lane.setCurrentIndex(max(0, lane.findData(t.lane)))
            lane.activated.connect(lambda i: self._set(t, lane=lane.itemData(i)))
            self._add(form, "lane", "Lane", lane)
            arrow = QComboBox()
            arrow.addItem("—", None)
            for f in Facing:
                if f.is_orthogonal:
                    arrow.addItem(f.name, f)
            arrow.setCurrentIndex(max(0, arrow.findData(t.arrow)))
            arrow.activated.connect(lambda i: self._set(t, arrow=arrow.itemData(i)))
            self._add(form, "arrow", "Arrow", arrow)

    def _scenario(self, form: QFormLayout) -> None:
        doc = self.ctx.doc
        s = doc.scenario
        rs = doc.ruleset
        title = ruleset_title(rs)
        ruleset = QLabel(title)
        ruleset.setWordWrap(True)
        form.addRow("Ruleset", ruleset)
        form.addRow("Board", QLabel(f"{s.board.columns} × {s.board.rows}"))
        for key in ("title", "author", "notes"):
            edit = QLineEdit(getattr(s, key))
            edit.setCursorPosition(0)  # show the start of a long title, not its end
            edit.setToolTip(getattr(s, key))
            edit.editingFinished.connect(self._info_setter(key, edit))
            self._add(form, key, key.title(), edit)
        values = rs.options(s)
        for spec, first_advanced in ordered_options(rs.option_specs):
            if first_advanced:
                heading = QLabel(ADVANCED_HEADING)
                heading.setWordWrap(True)
                form.addRow(heading)
            w = option_widget(spec, values[spec.name])
            self._add(form, f"option-{spec.name}", option_label(spec), w)
            signal = getattr(w, "toggled", None) or getattr(w, "activated", None)
            if signal is None:
                signal = w.editingFinished  # type: ignore[attr-defined]
            signal.connect(self._option_setter(spec.name, w))

    def _info_setter(self, key: str, edit: QLineEdit) -> Callable[[], None]:
        def apply() -> None:
            if getattr(self.ctx.doc.scenario, key) != edit.text():
                self.ctx.doc.undo_stack.push(
                    cmd.SetScenarioInfo(self.ctx.doc, f"Set {key}", **{key: edit.text()})
                )

        return apply

    def _option_setter(self, name: str, w: QWidget) -> Callable[..., None]:
        def apply(*args: object) -> None:
            doc = self.ctx.doc
            spec = doc.ruleset.option_spec(name)
            try:
                value = option_value(spec, w)
            except TankmapError as exc:
                self.ctx.say(f"Refused: {exc}")
                return
            self.set_option(name, value)

        return apply

    def set_option(self, name: str, value: object) -> editing.Outcome:
        """Set a scenario option (undoable; refused if it makes the setup illegal)."""
        doc = self.ctx.doc
        if doc.ruleset.options(doc.scenario).get(name) == value:
            return editing.Outcome(True)
        options = dict(doc.scenario.options)
        spec = doc.ruleset.option_spec(name)
        if value == spec.default:
            options.pop(name, None)
        else:
            options[name] = value  # type: ignore[assignment]
        after = replace(doc.scenario, options=options)
        errors = new_errors(doc.ruleset, doc.violations, after, doc.check)
        if errors:
            self.ctx.say(f"Refused: {reason_text(errors)}")
            self.rebuild(force=True)
            return editing.Outcome(False, reason_text(errors))
        doc.undo_stack.push(cmd.SetScenarioInfo(doc, f"Set option {name}", options=options))
        return editing.Outcome(True)

    def _set(self, piece: Piece | None, **changes: object) -> None:
        if piece is None or piece not in (
            *self.ctx.doc.scenario.units,
            *self.ctx.doc.scenario.terrain,
        ):
            return
        outcome = editing.set_property(self.ctx.doc, piece, **changes)
        if not outcome.ok:
            self.ctx.say(f"Refused: {outcome.reason}")
            self.rebuild(force=True)
