; Kotlin imports for the import table (parse/imports.py): each header, whole
; (`import a.b.C`, `import a.b.C as D`, `import a.b.*`).
(import_header) @import
