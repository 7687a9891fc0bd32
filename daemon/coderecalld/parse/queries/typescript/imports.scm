; ES module imports and CommonJS requires for the import table (parse/imports.py):
; each `import ... from "m"` statement and each `x = require("m")` declarator, whole,
; and each `export default ...` (it names the file's default export).
(import_statement) @import

(export_statement "default") @import

(variable_declarator
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string)))
  (#eq? @_require "require")) @import
