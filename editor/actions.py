"""Every menu command, declared once: id, text, shortcut, menu, and what it does.

Handlers take the main window (which holds the document), so tests run any command with
``window.run_action("edit.rotate")`` — no clicking. ``build_actions`` turns the table into
``QAction``s; Help ▸ Keyboard shortcuts lists the same table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QActionGroup, QKeySequence

from tankmap.editor.icons import action_icon
from tankmap.editor.pieces import Symmetry
from tankmap.editor.undo_words import redo_said, undo_said
from tankmap.rules.geometry import Side

if TYPE_CHECKING:
    from tankmap.editor.mainwindow import MainWindow

Handler = Callable[["MainWindow"], object]


SIDES = {"south": "South", "north": "North"}  # how texts name the sides before a document


@dataclass(frozen=True)
class ActionSpec:
    id: str
    text: str
    shortcut: str
    menu: str
    run: Handler
    tip: str = ""
    group: str = ""  # checkable, mutually exclusive within a group
    checkable: bool = False
    extra_shortcuts: tuple[str, ...] = ()
    short: str = ""  # toolbar label
    view_only: bool = False  # the key is handled by the board view while it has the focus

    def words(self, sides: Mapping[str, str] = SIDES) -> tuple[str, str]:
        """The menu text and the tooltip with the sides named (``{south}`` and ``{north}``
        in the table become the game's names: White and Black in Tank Chess)."""
        tip = self.tip or self.text.replace("&", "").rstrip("…")
        return self.text.format(**sides), tip.format(**sides)


def _overlay(name: str, mode: str, text: str, shortcut: str, tip: str = "") -> ActionSpec:
    """A View ▸ overlay entry ``view.overlay_<name>`` of the checkable group ``overlay``:
    ``mode`` is what ``MainWindow.set_overlay`` shows (``"lanes-south"``; ``""``: none);
    ``{side}`` in ``tip`` becomes the side the entry's text names."""
    side = "{north}" if mode.endswith("north") else "{south}"
    return ActionSpec(
        f"view.overlay_{name}",
        text,
        shortcut,
        "&View",
        lambda w: w.set_overlay(mode),
        tip.replace("{side}", side),
        group="overlay",
        checkable=True,
    )


LANES_TIP = "{side}'s cell-disjoint lanes to the goal, its narrowest cut and its safest route"
COVERAGE_TIP = "How many units of {side} can fire at each cell"
REACH_TIP = "Rounds (Tank Chess: turns) for any unit of {side} to stand on each cell"


SHORT = {
    "edit.undo": "Undo",
    "edit.redo": "Redo",
    "edit.rotate": "Rotate",
    "edit.mirror": "Mirror",
    "tools.select": "Select",
    "symmetry.off": "Symmetry off",
    "symmetry.point": "Point (180°)",
    "symmetry.lr": "Left-right",
    "view.fit": "Fit",
    "file.open": "Open",
    "file.new": "New",
    "game.play": "Play",
}


def _sym(mode: Symmetry) -> Handler:
    def run(w: MainWindow) -> None:
        w.set_symmetry(mode)

    return run


def _tool(tool_id: str) -> Handler:
    return lambda w: w.ctx.set_tool(tool_id)


def _stamp(w: MainWindow) -> object:
    from tankmap.editor.tools.stamp import start_stamp

    outcome = start_stamp(w.ctx)
    w.report(outcome)
    return outcome


def _resize(w: MainWindow) -> object:
    from tankmap.editor.resize import resize_board

    return resize_board(w)


def _play(w: MainWindow) -> object:
    from tankmap.editor.play import open_play

    return open_play(w)


def _resume(w: MainWindow) -> object:
    from tankmap.editor.play import resume_play

    return resume_play(w)


def _open_record(w: MainWindow) -> object:
    from tankmap.editor.replay_view import open_game_record

    return open_game_record(w)


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        "file.new",
        "&New…",
        "Ctrl+N",
        "&File",
        lambda w: w.new_file(),
        "Start a new scenario (ruleset, board size, options)",
    ),
    ActionSpec(
        "file.open",
        "&Open…",
        "Ctrl+O",
        "&File",
        lambda w: w.open_file(),
        "Open a scenario file or a built-in map",
    ),
    ActionSpec(
        "file.open_record",
        "Open &game record…",
        "Ctrl+Shift+O",
        "&File",
        _open_record,
        "Replay a game record (tankmap simulate --record) round by round on the board",
    ),
    ActionSpec("file.save", "&Save", "Ctrl+S", "&File", lambda w: w.save()),
    ActionSpec("file.save_as", "Save &As…", "Ctrl+Shift+S", "&File", lambda w: w.save_as()),
    ActionSpec(
        "file.revert",
        "Re&vert",
        "Ctrl+Shift+R",
        "&File",
        lambda w: w.revert(),
        "Discard unsaved changes and reload the file",
    ),
    ActionSpec(
        "file.export_png", "Export board as &PNG…", "Ctrl+E", "&File", lambda w: w.export("png")
    ),
    ActionSpec(
        "file.export_svg",
        "Export board as S&VG…",
        "Ctrl+Shift+E",
        "&File",
        lambda w: w.export("svg"),
    ),
    ActionSpec(
        "file.export_pdf",
        "Export setup s&heets (PDF)…",
        "Ctrl+P",
        "&File",
        lambda w: w.export("pdf"),
        "One printable page per side, other side hidden",
    ),
    ActionSpec(
        "file.export_tiled",
        "Export to &Tiled map…",
        "Ctrl+Alt+T",
        "&File",
        lambda w: w.export("tmx"),
        "Write the board as a Tiled map (.tmx, or .tmj by its name) with its tileset",
    ),
    ActionSpec(
        "file.import_tiled",
        "&Import from Tiled…",
        "Ctrl+Alt+I",
        "&File",
        lambda w: w.import_tiled(),
        "Open a Tiled map (.tmx/.tmj) written by tankmap, perhaps edited in Tiled",
    ),
    ActionSpec("file.quit", "&Quit", "Ctrl+Q", "&File", lambda w: w.close()),
    ActionSpec("edit.undo", "&Undo", "Ctrl+Z", "&Edit", lambda w: undo_said(w.ctx)),
    ActionSpec(
        "edit.redo",
        "&Redo",
        "Ctrl+Shift+Z",
        "&Edit",
        lambda w: redo_said(w.ctx),
        extra_shortcuts=("Ctrl+Y",),
    ),
    ActionSpec("edit.cut", "Cu&t", "Ctrl+X", "&Edit", lambda w: w.cut()),
    ActionSpec("edit.copy", "&Copy", "Ctrl+C", "&Edit", lambda w: w.copy()),
    ActionSpec(
        "edit.paste",
        "&Paste",
        "Ctrl+V",
        "&Edit",
        _stamp,
        "The copied pieces follow the cursor (green where they may go, red where not); "
        "click to paste, Esc to stop",
    ),
    ActionSpec(
        "edit.paste_here",
        "Paste &here",
        "Ctrl+Shift+V",
        "&Edit",
        lambda w: w.paste(),
        "Paste at once at the cell under the cursor",
    ),
    ActionSpec(
        "edit.delete",
        "&Delete",
        "Del",
        "&Edit",
        lambda w: w.delete_selection(),
        extra_shortcuts=("Backspace",),
    ),
    ActionSpec("edit.select_all", "Select &all", "Ctrl+A", "&Edit", lambda w: w.select_all()),
    ActionSpec(
        "edit.escape",
        "Select &nothing / stop placing",
        "Esc",
        "&Edit",
        lambda w: w.escape(),
        "Clear the selection and go back to the select tool",
    ),
    ActionSpec(
        "edit.rotate",
        "&Rotate clockwise",
        "R",
        "&Edit",
        lambda w: w.ctx.rotate(True),
        "Rotate the piece being placed or the selection (also Shift+wheel)",
    ),
    ActionSpec(
        "edit.rotate_back",
        "Rotate c&ounter-clockwise",
        "Shift+R",
        "&Edit",
        lambda w: w.ctx.rotate(False),
    ),
    ActionSpec("edit.mirror", "&Mirror shape", "M", "&Edit", lambda w: w.ctx.mirror()),
    ActionSpec(
        "edit.swap_sides",
        "S&wap sides",
        "Ctrl+Shift+W",
        "&Edit",
        lambda w: w.report(w.swap_sides()),
    ),
    ActionSpec(
        "edit.copy_south",
        "Copy {south} setup to &{north}",
        "Ctrl+Shift+N",
        "&Edit",
        lambda w: w.report(w.copy_setup(Side.SOUTH)),
    ),
    ActionSpec(
        "edit.copy_north",
        "C&opy {north} setup to {south}",
        "Ctrl+Shift+U",
        "&Edit",
        lambda w: w.report(w.copy_setup(Side.NORTH)),
    ),
    ActionSpec(
        "edit.resize",
        "Resi&ze board…",
        "Ctrl+Alt+R",
        "&Edit",
        _resize,
        "New width and height, anchored where the board should stay; pieces off the new "
        "board are removed only after you agree (undoable)",
    ),
    ActionSpec(
        "tools.select",
        "&Select / move",
        "S",
        "&Tools",
        _tool("select"),
        "Click to select, drag to move, drag on empty cells for a rubber band",
        group="tools",
        checkable=True,
    ),
    ActionSpec(
        "tools.place",
        "&Place",
        "P",
        "&Tools",
        _tool("place"),
        "Place the palette piece (green preview = legal)",
        group="tools",
        checkable=True,
    ),
    ActionSpec(
        "tools.erase",
        "&Erase",
        "E",
        "&Tools",
        _tool("erase"),
        "Click a piece to remove it",
        group="tools",
        checkable=True,
    ),
    ActionSpec(
        "tools.next_shape",
        "&Next shape",
        "]",
        "&Tools",
        lambda w: w.cycle_shape(1),
        "Next footprint shape of the palette piece (Tank Chess obstacles, Final Act swamps...)",
    ),
    ActionSpec(
        "tools.previous_shape",
        "Pre&vious shape",
        "[",
        "&Tools",
        lambda w: w.cycle_shape(-1),
    ),
    ActionSpec(
        "symmetry.off",
        "Symmetry &off",
        "Alt+0",
        "S&ymmetry",
        _sym(Symmetry.OFF),
        group="symmetry",
        checkable=True,
    ),
    ActionSpec(
        "symmetry.point",
        "&Point (180°): mirror onto the other side",
        "Alt+1",
        "S&ymmetry",
        _sym(Symmetry.POINT),
        group="symmetry",
        checkable=True,
    ),
    ActionSpec(
        "symmetry.lr",
        "&Left-right mirror",
        "Alt+2",
        "S&ymmetry",
        _sym(Symmetry.LEFT_RIGHT),
        group="symmetry",
        checkable=True,
    ),
    ActionSpec(
        "view.zoom_in",
        "Zoom &in",
        "Ctrl++",
        "&View",
        lambda w: w.view.zoom_in(),
        extra_shortcuts=("Ctrl+=",),
    ),
    ActionSpec("view.zoom_out", "Zoom &out", "Ctrl+-", "&View", lambda w: w.view.zoom_out()),
    ActionSpec("view.fit", "&Fit board", "Ctrl+0", "&View", lambda w: w.view.fit()),
    ActionSpec(
        "view.board_only",
        "Board only (&hide panels)",
        "Ctrl+Shift+F",
        "&View",
        lambda w: w.toggle_board_only(),
        "Hide every panel so the board takes the whole window; again to bring them back",
        checkable=True,
    ),
    ActionSpec(
        "view.unit_view",
        "&Unit view (moves and fire zone)",
        "U",
        "&View",
        lambda w: w.toggle_unit_view(),
        checkable=True,
    ),
    ActionSpec(
        "view.live_balance",
        "Live &balance meter",
        "Ctrl+Alt+L",
        "&View",
        lambda w: w.analysis.toggle_live_balance(),
        "After each edit, 100 heuristic games in the background: the balance in the status bar",
        checkable=True,
    ),
    ActionSpec(
        "view.next_problem",
        "Next &problem",
        "F8",
        "&View",
        lambda w: w.step_problem(1),
        "Select and show the next problem of the Problems list",
    ),
    ActionSpec(
        "view.previous_problem",
        "Previous p&roblem",
        "Shift+F8",
        "&View",
        lambda w: w.step_problem(-1),
    ),
    _overlay("lanes_south", "lanes-south", "Lanes and choke point: {south}", "Alt+3", LANES_TIP),
    _overlay("lanes_north", "lanes-north", "Lanes and choke point: {north}", "Alt+4", LANES_TIP),
    _overlay("none", "", "No analysis overlay", "Alt+5"),
    _overlay("cov_south", "coverage-south", "Fire coverage: {south}", "Alt+6", COVERAGE_TIP),
    _overlay("cov_north", "coverage-north", "Fire coverage: {north}", "Alt+7", COVERAGE_TIP),
    _overlay("reach_south", "reach-south", "Reach: {south}", "Alt+8", REACH_TIP),
    _overlay("reach_north", "reach-north", "Reach: {north}", "Alt+9", REACH_TIP),
    ActionSpec(
        "analysis.balance",
        "Simulate &balance…",
        "Ctrl+B",
        "&Analysis",
        lambda w: w.analysis.show_balance(),
        "Play many seeded games of this board: win rates with 95 % intervals and balance",
    ),
    ActionSpec(
        "analysis.report",
        "Open analysis &report",
        "Ctrl+Shift+B",
        "&Analysis",
        lambda w: w.analysis.open_report(),
        "Reach, fire coverage, lanes and choke points of this board as an HTML report",
    ),
    ActionSpec(
        "analysis.suggest",
        "&Suggest edits…",
        "Ctrl+Alt+B",
        "&Analysis",
        lambda w: w.analysis.show_suggestions(),
        "Legal terrain edits that even the balance, confirmed by playouts (Suggestions dock)",
    ),
    ActionSpec(
        "game.play",
        "&Play…",
        "Ctrl+Shift+P",
        "&Game",
        _play,
        "Play this board: you against an agent, or two people at one screen (hot-seat)",
    ),
    ActionSpec(
        "game.resume",
        "&Resume game…",
        "Ctrl+Alt+P",
        "&Game",
        _resume,
        "Go on playing a saved game record (Play's Save record…, tankmap play --record)",
    ),
    ActionSpec(
        "help.shortcuts", "&Keyboard shortcuts", "F1", "&Help", lambda w: w.show_shortcuts()
    ),
    ActionSpec(
        "help.rules",
        "&Rules of the game",
        "Ctrl+F1",
        "&Help",
        lambda w: w.show_rules(),
        "The rules as tankmap implements them (docs/rules.md), at this game's section",
    ),
    ActionSpec("help.about", "&About tankmap", "Shift+F1", "&Help", lambda w: w.show_about()),
)

MENUS = ("&File", "&Edit", "&Tools", "S&ymmetry", "&View", "&Analysis", "&Game", "&Help")


def spec(action_id: str) -> ActionSpec:
    for a in ACTIONS:
        if a.id == action_id:
            return a
    raise KeyError(action_id)


def build_actions(window: MainWindow) -> dict[str, QAction]:
    """A ``QAction`` per spec, parented to ``window``, triggering the spec's handler."""
    actions: dict[str, QAction] = {}
    groups: dict[str, QActionGroup] = {}
    for s in ACTIONS:
        act = QAction(window)
        act.setObjectName(s.id)
        keys = [QKeySequence(k) for k in (s.shortcut, *s.extra_shortcuts) if k]
        if not s.view_only:
            act.setShortcuts(keys)
        act.setCheckable(s.checkable)
        act.setIcon(action_icon(s.id))
        if s.id in SHORT:
            act.setIconText(SHORT[s.id])
        if s.group:
            groups.setdefault(s.group, QActionGroup(window)).addAction(act)
        act.triggered.connect(lambda checked=False, s=s: s.run(window))
        actions[s.id] = act
    name_sides(actions, SIDES)
    return actions


def name_sides(actions: Mapping[str, QAction], sides: Mapping[str, str]) -> None:
    """Set every action's text and tooltip with the sides named ``sides`` (``{"south":
    "White", "north": "Black"}``): the window calls it whenever a document of another game
    is opened."""
    for s in ACTIONS:
        act = actions.get(s.id)
        if act is None:
            continue
        text, tip = s.words(sides)
        if s.shortcut:
            tip += f" ({QKeySequence(s.shortcut).toString(QKeySequence.SequenceFormat.NativeText)})"
        act.setText(text)
        act.setToolTip(tip)
        act.setStatusTip(tip)


def shortcuts_html(sides: Mapping[str, str] = SIDES) -> str:
    """The Help ▸ Keyboard shortcuts table, in two columns (File and Edit | the rest and
    the mouse) so it fits a laptop screen; in each menu's order (the overlays' keys
    ascend), the sides named ``sides``."""

    def section(menu: str) -> list[str]:
        rows = [f"<tr><td colspan=2><br><b>{menu.replace('&', '')}</b></td></tr>"]
        for s in ACTIONS:
            if s.menu == menu and s.shortcut:
                keys = ", ".join(
                    QKeySequence(k).toString(QKeySequence.SequenceFormat.NativeText)
                    for k in (s.shortcut, *s.extra_shortcuts)
                )
                rows.append(
                    f"<tr><td>{s.words(sides)[0].replace('&', '')}</td>"
                    f"<td style='padding-left:12px'><b>{keys}</b></td></tr>"
                )
        return rows

    left = [row for menu in MENUS[:2] for row in section(menu)]
    right = [row for menu in MENUS[2:] for row in section(menu)]
    right.append("<tr><td colspan=2><br><b>Mouse</b></td></tr>")
    for what, how in (
        ("Zoom", "wheel"),
        ("Rotate", "Shift+wheel, or right click with the place tool"),
        ("Pan", "middle button drag, or Space + drag"),
        ("Add to selection", "Ctrl+click, Ctrl+drag"),
    ):
        right.append(f"<tr><td>{what}</td><td style='padding-left:12px'>{how}</td></tr>")

    def table(rows: list[str]) -> str:
        return "<table cellspacing=0 cellpadding=2>" + "".join(rows) + "</table>"

    return (
        "<table cellspacing=0 cellpadding=0><tr>"
        f"<td valign=top style='padding-right:28px'>{table(left)}</td>"
        f"<td valign=top>{table(right)}</td></tr></table>"
    )
