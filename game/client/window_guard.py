"""A kiosk's window stays full screen, shown and on top, whatever the window manager does
(Alt+Space → Iconify, a shortcut that unsets full screen, another window raised over it).

SDL reports a minimised window, but not a window manager taking full screen away: its own
flags still say full screen.  On X11 the window manager's record of the window — its
``_NET_WM_STATE`` property (EWMH) — is read with libX11 through ctypes, and the EWMH requests
that take it back (full screen again, activate) go straight to the window manager; SDL's idea
of the window never changes, so nothing else has to.  Elsewhere (Wayland, tests' dummy
driver) only SDL's own events are watched.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import warnings

import pygame

log = logging.getLogger(__name__)

CHECK_EVERY = 0.5
"""Seconds between two looks at the window manager's record: lost is taken back within 1 s."""

_CLIENT_MESSAGE = 33
_SUBSTRUCTURE = (1 << 19) | (1 << 20)  # SubstructureNotifyMask | SubstructureRedirectMask
_ADD, _FROM_AN_APPLICATION = 1, 1
_ANY_TYPE = 0


class _ClientMessage(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("serial", ctypes.c_ulong),
        ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("window", ctypes.c_ulong),
        ("message_type", ctypes.c_ulong),
        ("format", ctypes.c_int),
        ("data", ctypes.c_long * 5),
    ]


class _Event(ctypes.Union):
    _fields_ = [("message", _ClientMessage), ("pad", ctypes.c_long * 24)]


class X11Window:
    """One window's EWMH state, read and requested with a connection of its own."""

    def __init__(self, window: int) -> None:
        name = ctypes.util.find_library("X11")
        if name is None:
            raise OSError("libX11 not found")
        x = self._x = ctypes.CDLL(name)
        x.XOpenDisplay.restype = ctypes.c_void_p
        x.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x.XInternAtom.restype = ctypes.c_ulong
        x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        x.XDefaultRootWindow.restype = ctypes.c_ulong
        x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        x.XGetWindowProperty.argtypes = [
            ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_long, ctypes.c_long,
            ctypes.c_int, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong),
            ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_ulong),
            ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_void_p),
        ]  # fmt: skip
        x.XSendEvent.argtypes = [
            ctypes.c_void_p,
            ctypes.c_ulong,
            ctypes.c_int,
            ctypes.c_long,
            ctypes.c_void_p,
        ]
        x.XFree.argtypes = [ctypes.c_void_p]
        x.XFlush.argtypes = [ctypes.c_void_p]
        x.XCloseDisplay.argtypes = [ctypes.c_void_p]
        self._display = x.XOpenDisplay(None)
        if not self._display:
            raise OSError("cannot open the X display")
        self.window = window
        self._root = x.XDefaultRootWindow(self._display)
        atom = {
            n: x.XInternAtom(self._display, n.encode(), 0)
            for n in ("_NET_WM_STATE", "_NET_WM_STATE_FULLSCREEN", "_NET_WM_STATE_HIDDEN",
                      "_NET_ACTIVE_WINDOW")
        }  # fmt: skip
        self._state, self._active = atom["_NET_WM_STATE"], atom["_NET_ACTIVE_WINDOW"]
        self._fullscreen, self._hidden = (
            atom["_NET_WM_STATE_FULLSCREEN"],
            atom["_NET_WM_STATE_HIDDEN"],
        )

    def states(self) -> set[int]:
        """The atoms of the window's ``_NET_WM_STATE`` (empty if it has none)."""
        kind, size = ctypes.c_ulong(), ctypes.c_int()
        count, left, data = ctypes.c_ulong(), ctypes.c_ulong(), ctypes.c_void_p()
        self._x.XGetWindowProperty(
            self._display, self.window, self._state, 0, 64, 0, _ANY_TYPE, ctypes.byref(kind),
            ctypes.byref(size), ctypes.byref(count), ctypes.byref(left), ctypes.byref(data),
        )  # fmt: skip
        if not data:
            return set()
        try:
            if size.value != 32:
                return set()
            atoms = ctypes.cast(data, ctypes.POINTER(ctypes.c_ulong))
            return {atoms[i] for i in range(count.value)}
        finally:
            self._x.XFree(data)

    def lost(self) -> bool:
        """Whether the window manager has it hidden or not full screen."""
        states = self.states()
        return self._fullscreen not in states or self._hidden in states

    def take_back(self) -> None:
        """Ask the window manager for full screen and for the window to be the active one
        (which shows a hidden window and raises it)."""
        self._send(self._state, _ADD, self._fullscreen, 0, _FROM_AN_APPLICATION)
        self._send(self._active, _FROM_AN_APPLICATION, 0, 0)
        self._x.XFlush(self._display)

    def _send(self, kind: int, *data: int) -> None:
        event = _Event()
        message = event.message
        message.type, message.send_event, message.display = _CLIENT_MESSAGE, 1, self._display
        message.window, message.message_type, message.format = self.window, kind, 32
        for index, value in enumerate(data):
            message.data[index] = value
        self._x.XSendEvent(self._display, self._root, 0, _SUBSTRUCTURE, ctypes.byref(event))

    def close(self) -> None:
        if self._display:
            self._x.XCloseDisplay(self._display)
            self._display = None


class WindowGuard:
    """Watches the kiosk's window; :meth:`check` takes it back when it was lost."""

    def __init__(self) -> None:
        self._x11: X11Window | None = None
        self._minimised = False
        self._checked_at = -CHECK_EVERY
        self.taken_back = 0
        """How many times the window was lost and taken back."""
        info = pygame.display.get_wm_info() if pygame.display.get_init() else {}
        if pygame.display.get_driver() == "x11" and "window" in info:
            try:
                self._x11 = X11Window(int(info["window"]))
            except (OSError, AttributeError) as error:
                log.warning("kiosk: cannot watch the window manager (%s)", error)

    def saw(self, event: pygame.event.Event) -> None:
        """Note SDL's word that the window was minimised or hidden."""
        if event.type in (pygame.WINDOWMINIMIZED, pygame.WINDOWHIDDEN):
            self._minimised = True

    def check(self, now: float) -> bool:
        """Take the window back if it was lost; whether it was (at most every
        :data:`CHECK_EVERY` seconds of ``now``, the app's clock)."""
        if now - self._checked_at < CHECK_EVERY:
            return False
        self._checked_at = now
        lost = self._minimised or (self._x11 is not None and self._x11.lost())
        if not lost:
            return False
        self._minimised = False
        self.taken_back += 1
        log.warning("kiosk: the window was minimised or left full screen; taken back")
        if self._x11 is not None:
            self._x11.take_back()
        else:
            with warnings.catch_warnings():  # only to restore and raise it, not to draw
                warnings.simplefilter("ignore", DeprecationWarning)
                window = pygame.Window.from_display_module()
            window.restore()
            window.focus()
        return True

    def close(self) -> None:
        if self._x11 is not None:
            self._x11.close()
            self._x11 = None
