"""pnpgen: print-and-play component generator and rulebook builder for board games."""

__version__ = "0.1.0"
