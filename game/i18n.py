"""The translation catalogue: every text shown to players goes through :func:`_`.

Catalogues are gettext files under ``assets/locale/<language>/LC_MESSAGES/tavolo.mo``, made
from the ``.po`` sources beside them by ``python tools/build_catalogues.py``.  English is the
source language.  A missing or damaged catalogue is logged and English is used instead.
"""

from __future__ import annotations

import gettext
import io
import logging

from game.resources import MissingAssetError, asset_bytes

log = logging.getLogger(__name__)

LANGUAGES = {"en": "English", "it": "Italiano", "de": "Deutsch"}
DEFAULT_LANGUAGE = "en"
DOMAIN = "tavolo"

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = DEFAULT_LANGUAGE


def catalogue_path(language: str) -> str:
    return f"locale/{language}/LC_MESSAGES/{DOMAIN}.mo"


def set_language(language: str) -> str:
    """Translate into ``language`` from now on; returns the language actually in use."""
    global _translations, _language
    if language not in LANGUAGES:
        log.warning("unknown language %r; using English", language)
        language = DEFAULT_LANGUAGE
    if language == DEFAULT_LANGUAGE:  # the source language needs no catalogue
        _translations, _language = gettext.NullTranslations(), language
        return language
    try:
        data = asset_bytes(catalogue_path(language))
        _translations = gettext.GNUTranslations(io.BytesIO(data))
    except (MissingAssetError, OSError) as error:
        log.warning("no %s catalogue (%s); using English", LANGUAGES[language], error)
        _translations, language = gettext.NullTranslations(), DEFAULT_LANGUAGE
    _language = language
    return language


def language() -> str:
    return _language


def _(message: str) -> str:
    """``message`` in the current language."""
    return _translations.gettext(message)


_others: dict[str, gettext.NullTranslations] = {}


def in_language(message: str, language: str) -> str:
    """``message`` in ``language``, whatever the current one (a kiosk's banner shows each
    language it allows in turn)."""
    if language not in _others:
        try:
            _others[language] = (
                gettext.NullTranslations()
                if language == DEFAULT_LANGUAGE
                else gettext.GNUTranslations(io.BytesIO(asset_bytes(catalogue_path(language))))
            )
        except (MissingAssetError, OSError):
            _others[language] = gettext.NullTranslations()
    return _others[language].gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    return _translations.ngettext(singular, plural, count)
