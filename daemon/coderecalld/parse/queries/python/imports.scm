; Python import statements for the import table (parse/imports.py): each statement whole;
; its names and aliases are read from the node's fields.
(import_statement) @import
(import_from_statement) @import
