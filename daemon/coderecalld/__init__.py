"""coderecalld: the coderecall indexing and query daemon."""

__version__ = "0.1.0"
