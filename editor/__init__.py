"""The PySide6 desktop editor (``tankmap edit``)."""
