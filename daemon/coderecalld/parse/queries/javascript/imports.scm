; ES module imports and CommonJS requires for the import table (parse/imports.py):
; each `import ... from "m"` statement and each `x = require("m")` declarator, whole.
(import_statement) @import

(variable_declarator
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string)))
  (#eq? @_require "require")) @import
