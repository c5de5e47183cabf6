"""The package's version (``notation.__version__``), in a module of its own so that the modules below
the package's front door can write it (an SGF file's ``AP``)."""

__version__ = "0.1.0"
