"""The tankmap command line (``tankmap ...`` / ``python -m tankmap``)."""

__version__ = "0.1.0"
