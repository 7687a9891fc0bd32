; Go imports for the import table (parse/imports.py): each import spec, whole
; (`"example.com/m/pkg"`, `alias "example.com/m/pkg"`, `. "..."`, `_ "..."`).
(import_spec) @import
