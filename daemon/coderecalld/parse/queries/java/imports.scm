; Java imports for the import table (parse/imports.py): each declaration, whole
; (`import a.b.C;`, `import a.b.*;`, `import static a.b.C.m;`).
(import_declaration) @import
